// Parks and bushland as open land, not a street grid (issue 49, "Parks are parks"; packs/README.md, "Lots"): the
// blocks of a row that are wholly park (RE1) or wholly bushland (C2) are joined into one lot over the cross streets
// between them, reaching to the middle of the road line before or after a block where the block across it is open
// land of the same zone too, so a park reads as one piece and no street lies between its parts.
import type { Cell, Lot, Plan } from "./plan.ts";
import type { ZoneCode } from "./zones.ts";

/** A box in the plan's frame (whole metres). */
export type Box = { u0: number; u1: number; v0: number; v1: number };

const OPEN: ReadonlySet<ZoneCode> = new Set(["RE1", "C2"]);

/** Whether a zone is open land (a park or bushland), never built on. */
export const isOpen = (zone: ZoneCode): boolean => OPEN.has(zone);

// The zone of a block that is one open lot covering it whole, else null.
function openZone(c: Cell, lots: readonly Lot[] | undefined): ZoneCode | null {
  const l = lots?.length === 1 ? lots[0] : undefined;
  if (!l || !OPEN.has(l.zone) || l.rail) return null;
  return l.u0 === c.u0 && l.u1 === c.u1 && l.v0 === c.v0 && l.v1 === c.v1 ? l.zone : null;
}

/** The plan's lots with each row's runs of wholly open blocks joined into one lot (lots otherwise in their order). */
export function joinOpenLand(plan: Plan, lots: readonly Lot[]): Lot[] {
  const byCell = new Map<number, Lot[]>();
  for (const l of lots) {
    const list = byCell.get(l.cell);
    if (list) list.push(l);
    else byCell.set(l.cell, [l]);
  }
  const open = new Map<string, { c: Cell; zone: ZoneCode }>();
  for (const c of plan.cells) {
    const zone = openZone(c, byCell.get(c.idx));
    if (zone) open.set(`${c.j}:${c.k}`, { c, zone });
  }
  const zoneAt = (j: number, k: number) => open.get(`${j}:${k}`)?.zone;
  // The middle of the road line before row j (whole metres), read from an open block of that row.
  const half = Math.floor(plan.ch.road / 2);
  const middle = (j: number, k: number) => (open.get(`${j}:${k}`)?.c.v0 as number) - half;
  // Each block of a run: its lot, or null where the run's first block's lot takes its ground.
  const joined = new Map<number, Lot | null>();
  for (const c of plan.cells) {
    const zone = zoneAt(c.j, c.k);
    if (!zone || zoneAt(c.j, c.k - 1) === zone) continue;
    const run: Cell[] = [c];
    while (zoneAt(c.j, c.k + run.length) === zone) run.push((open.get(`${c.j}:${c.k + run.length}`) as { c: Cell }).c);
    const below = (k: number) => zoneAt(c.j - 1, k) === zone;
    const above = (k: number) => zoneAt(c.j + 1, k) === zone;
    const lo = (ks: number[]) => (ks.every(below) ? middle(c.j, ks[0] as number) : c.v0);
    const hi = (ks: number[]) => (ks.every(above) ? middle(c.j + 1, ks[0] as number) : c.v1);
    // Pieces along the row, each within one column of the frame: a block, then the cross street to the next.
    const parts: Box[] = [];
    run.forEach((b, i) => {
      parts.push({ u0: b.u0, u1: b.u1, v0: lo([b.k]), v1: hi([b.k]) });
      const next = run[i + 1];
      if (next) parts.push({ u0: b.u1, u1: next.u0, v0: lo([b.k, next.k]), v1: hi([b.k, next.k]) });
    });
    const first = (byCell.get(c.idx) as Lot[])[0] as Lot;
    const last = run[run.length - 1] as Cell;
    const plain = run.length === 1 && parts[0]?.v0 === c.v0 && parts[0]?.v1 === c.v1;
    joined.set(c.idx, plain ? first : { ...first, u1: last.u1, outline: outlineOf(parts, c.v1), parts });
    for (const b of run.slice(1)) joined.set(b.idx, null);
  }
  const out: Lot[] = [];
  for (const l of lots) {
    const j = joined.get(l.cell);
    if (j === undefined) out.push(l);
    else if (j !== null) out.push(j);
  }
  return out;
}

// The ring around a row's pieces, counter-clockwise as a lot's quad: along the bottom, up, back along the top, down.
// A side reaching past the row's back edge (v1) turns there, where the frame's next band begins.
function outlineOf(parts: readonly Box[], v1: number): [number, number][] {
  const pts: [number, number][] = [];
  const put = (u: number, v: number) => {
    const p = pts[pts.length - 1];
    if (!p || p[0] !== u || p[1] !== v) pts.push([u, v]);
  };
  for (const p of parts) {
    put(p.u0, p.v0);
    put(p.u1, p.v0);
  }
  const last = parts[parts.length - 1] as Box;
  if (last.v1 > v1) put(last.u1, v1);
  for (const p of [...parts].reverse()) {
    put(p.u1, p.v1);
    put(p.u0, p.v1);
  }
  const first = parts[0] as Box;
  if (first.v1 > v1) put(first.u0, v1);
  return pts;
}

/**
 * The lots as boxes the overlays are drawn on: a joined lot as its pieces, each cut at its row's edges so every box lies
 * in one column and one band of the frame (its quad then straight where the lot's ring is), others whole.
 */
export function lotPieces(lots: readonly Lot[]): Lot[] {
  return lots.flatMap((l) => {
    if (!l.parts) return [l];
    const { outline: _o, parts, ...rest } = l;
    return parts.flatMap((p) =>
      [
        [p.v0, l.v0],
        [l.v0, l.v1],
        [l.v1, p.v1],
      ]
        .filter(([a, b]) => (b as number) > (a as number))
        .map(([v0, v1]) => ({ ...rest, u0: p.u0, u1: p.u1, v0: v0 as number, v1: v1 as number })),
    );
  });
}
