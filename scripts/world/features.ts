// A plan's overlay layers, drawn on its lots: zoning and controls follow the lots (a control's station band
// may cut through one), flood and bushfire cut lots where their extent ends, heritage items are single lots
// and conservation areas groups of them. Every feature is a quad of one row, so none crosses its suburb.
import { nameHash, smoothNoise, unit } from "./hash-random.ts";
import { at } from "./lattice.ts";
import type { Cell, Lot, Plan } from "./plan.ts";
import type { WorldContext } from "./context.ts";
import { lotPieces } from "./open-land.ts";
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";
import {
  BANDED,
  type Controls,
  fsrLabel,
  heightLabel,
  lotLabel,
  ZONE_CODES,
  ZONE_NAMES,
  type ZoneCode,
  zoneControls,
} from "./zones.ts";

// A quad of one row in the plan's frame (whole metres) with its layer's field values; pieces with the same
// group are parts of one feature.
export type Piece = { u0: number; u1: number; v0: number; v1: number; props: unknown[]; group?: string };

// Zoning is drawn as one feature per zone and 4 x 4 blocks: the "nearest centre" search reads every zoning
// feature within kilometres of a lot, so fewer, larger features keep it fast (the shares are the same).
const GROUP_BLOCKS = 4;

export type Overlays = {
  zoning: Piece[];
  centres: Piece[];
  fsr: Piece[];
  height: Piece[];
  lotSize: Piece[];
  flood: Piece[];
  bushfire: Piece[];
  heritage: Piece[];
};

const CENTRE = new Set<ZoneCode>(["E1", "E2", "MU1"]);
const HERITAGE_KINDS = [
  "Victorian terrace",
  "Federation cottage",
  "Inter-war bungalow",
  "Former bank",
  "Sandstone church",
  "Corner shop and residence",
  "Georgian cottage",
  "Californian bungalow",
  "Art Deco flats",
  "Former school",
];
// A city core's items are its commercial and civic buildings, not houses.
const CBD_HERITAGE_KINDS = [
  "Former bank",
  "Sandstone church",
  "Victorian warehouse",
  "Federation office building",
  "Inter-war commercial building",
  "Former post office",
  "Art Deco office building",
  "Former hotel",
];
// Flood planning extents reach 70 m (±40 m over the ground's lie) from a river or creek; bushfire buffers 100 m.
const FLOOD_M = 70;
const FLOOD_VARY_M = 40;
const BUFFER_M = 100;

export function epiName(lga: string): string {
  return `${lga} synthetic LEP (demo)`;
}

/** A council's controls for a zone (`core`: inside a station band), the same for all its suburbs. */
export function councilControls(
  ctx: WorldContext,
  lga: string,
  zone: ZoneCode,
  core: boolean,
  r2MinLot: number | null,
): Controls {
  const z = ZONE_CODES.indexOf(zone);
  const h = nameHash(lga);
  const c = zoneControls(zone, lga, core, [unit(ctx.seed, h, z, 1), unit(ctx.seed, h, z, 2), unit(ctx.seed, h, z, 3)]);
  return zone === "R2" && r2MinLot !== null ? { ...c, minLot: r2MinLot } : c;
}

// Consecutive touching pieces of one row with the same key become one.
function merge(pieces: { p: Piece; key: string }[]): Piece[] {
  const out: Piece[] = [];
  let last: { p: Piece; key: string } | null = null;
  for (const x of pieces) {
    if (last && last.key === x.key && last.p.u1 === x.p.u0 && last.p.v0 === x.p.v0 && last.p.v1 === x.p.v1) {
      last.p.u1 = x.p.u1;
      continue;
    }
    last = { p: { ...x.p }, key: x.key };
    out.push(last.p);
  }
  return out;
}

// The stretch [a, b] of a lot where `inside(u)` holds, cut at whole metres by bisection; null when none.
function cut(l: Lot, inside: (u: number) => boolean): [number, number] | null {
  const a = inside(l.u0 + 0.5);
  const b = inside(l.u1 - 0.5);
  const edge = (from: number, to: number, fromIn: boolean): number => {
    // Whole metres strictly inside the lot: the piece never collapses onto a lot edge.
    let lo = from;
    let hi = to;
    while (Math.abs(hi - lo) > 1) {
      const mid = Math.round((lo + hi) / 2);
      if (inside(mid) === fromIn) lo = mid;
      else hi = mid;
    }
    return Math.min(l.u1 - 1, Math.max(l.u0 + 1, Math.round((lo + hi) / 2)));
  };
  if (a && b) return [l.u0, l.u1];
  if (a) return [l.u0, edge(l.u0, l.u1, true)];
  if (b) return [edge(l.u0, l.u1, false), l.u1];
  const m = Math.round((l.u0 + l.u1) / 2);
  if (l.u1 - l.u0 >= 4 && inside(m))
    return [edge(m, l.u0, true), edge(m, l.u1, true)].sort((x, y) => x - y) as [number, number];
  return null;
}

/** The zoning of some of a plan's lots as runs along their rows, centres (E1, E2, MU1) apart. */
export function zoningRuns(plan: Plan, lots: readonly Lot[]): { zoning: Piece[]; centres: Piece[] } {
  const lga = plan.suburb.lga;
  const epi = epiName(lga);
  const zoning: Piece[] = [];
  const centres: Piece[] = [];
  let last: Piece | null = null;
  let lastZone = "";
  for (const l of lots) {
    if (last && lastZone === l.zone && last.u1 === l.u0 && last.v0 === l.v0 && last.v1 === l.v1) {
      last.u1 = l.u1;
      continue;
    }
    const c = plan.cells[l.cell] as Cell;
    const group = `${plan.suburb.index}:${l.zone}:${Math.floor(c.j / GROUP_BLOCKS)}:${Math.floor(c.k / GROUP_BLOCKS)}`;
    last = { u0: l.u0, u1: l.u1, v0: l.v0, v1: l.v1, props: [l.zone, ZONE_NAMES[l.zone], epi, lga], group };
    lastZone = l.zone;
    (CENTRE.has(l.zone) ? centres : zoning).push(last);
  }
  return { zoning, centres };
}

/** Draws the overlay layers over a plan's lots. */
export function overlaysOf(ctx: WorldContext, plan: Plan): Overlays {
  const { suburb, ch, frame, seed } = plan;
  const lga = suburb.lga;
  const epi = epiName(lga);
  const deg = (u: number, v: number): [number, number] => {
    const [x, y] = at(frame, u, v);
    return [x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE];
  };
  const fsr: { p: Piece; key: string }[] = [];
  const height: { p: Piece; key: string }[] = [];
  const lotSize: { p: Piece; key: string }[] = [];
  const flood: { p: Piece; key: string }[] = [];
  const bush: { p: Piece; key: string }[] = [];
  const hca: { p: Piece; key: string }[] = [];
  const items: Piece[] = [];
  const floodName = `${suburb.name} flood planning area`;
  const hcaName = `${suburb.name} Heritage Conservation Area`;
  // Open land joined over streets is drawn on piece by piece: each piece lies in one column of the bent frame.
  const pieces = lotPieces(plan.lots);
  for (const l of pieces) {
    const { u0, u1, v0, v1 } = l;
    const vm = (v0 + v1) / 2;

    // Controls: one piece, or two or three where a station band's circle crosses the lot.
    const st = l.station >= 0 ? plan.stations[l.station] : undefined;
    let core: [number, number] | null = null;
    if (st && BANDED.has(l.zone)) {
      const r = l.zone === "R4" ? (st.centre.radius + st.r4) / 2 : st.centre.radius * 0.6;
      const dv = vm - st.v;
      if (Math.abs(dv) < r) {
        const half = Math.sqrt(r * r - dv * dv);
        const a = Math.max(u0, Math.round(st.u - half));
        const b = Math.min(u1, Math.round(st.u + half));
        if (b > a) core = [a, b];
      }
    }
    const spans: [number, number, boolean][] = core
      ? (
          [
            [u0, core[0], false],
            [core[0], core[1], true],
            [core[1], u1, false],
          ] as [number, number, boolean][]
        ).filter(([a, b]) => b > a)
      : [[u0, u1, false]];
    for (const [a, b, inCore] of spans) {
      const c = councilControls(ctx, lga, l.zone, inCore, ch.r2MinLot);
      if (c.fsr !== null)
        fsr.push({ p: { u0: a, u1: b, v0, v1, props: [c.fsr, fsrLabel(c.fsr), epi] }, key: `${c.fsr}` });
      if (c.height !== null)
        height.push({
          p: { u0: a, u1: b, v0, v1, props: [c.height, heightLabel(c.height), "Clause 4.3", epi] },
          key: `${c.height}`,
        });
    }
    const lc = councilControls(ctx, lga, l.zone, false, ch.r2MinLot);
    if (lc.minLot !== null)
      lotSize.push({ p: { u0, u1, v0, v1, props: [lc.minLot, lotLabel(lc.minLot), epi] }, key: `${lc.minLot}` });

    // Flood: near the rivers and creeks of the water layer, the extent rising and falling with the ground.
    const [cx, cy] = deg((u0 + u1) / 2, vm);
    const reach = FLOOD_M + FLOOD_VARY_M + (u1 - u0) / 2 + (v1 - v0) / 2;
    if (Number.isFinite(ctx.water.distanceM(cx, cy, reach))) {
      const f = cut(l, (u) => {
        const [x, y] = deg(u, vm);
        const w = FLOOD_M + FLOOD_VARY_M * smoothNoise(u, vm, 250, seed, 0xf1);
        return ctx.water.distanceM(x, y, FLOOD_M + FLOOD_VARY_M) < w;
      });
      if (f) flood.push({ p: { u0: f[0], u1: f[1], v0, v1, props: ["Flood planning area", floodName] }, key: "f" });
    }

    // Bushfire: bushland itself (bushland reserves and C2 land in bushy suburbs), and a buffer around it.
    if (ch.bushy) {
      if (l.zone === "C2" || (l.zone === "RE1" && ctx.bushland.contains(cx, cy))) {
        bush.push({ p: { u0, u1, v0, v1, props: ["Vegetation Category 1"] }, key: "1" });
      } else {
        const near = nearBush(plan, l);
        const reachB = BUFFER_M + (u1 - u0) / 2 + (v1 - v0) / 2;
        if (near.length > 0 || Number.isFinite(ctx.bushland.distanceM(cx, cy, reachB))) {
          const b = cut(l, (u) => {
            const [x, y] = deg(u, vm);
            if (Number.isFinite(ctx.bushland.distanceM(x, y, BUFFER_M))) return true;
            return near.some((r) => rectDistance(r, u, vm) < BUFFER_M);
          });
          if (b) bush.push({ p: { u0: b[0], u1: b[1], v0, v1, props: ["Vegetation Buffer"] }, key: "b" });
        }
      }
    }

    if (l.hca)
      hca.push({
        p: { u0, u1, v0, v1, props: [hcaName, "Local", `C${suburb.index}`, "Conservation Area - General", epi] },
        key: "c",
      });
    if (l.item) {
      const kinds = ch.cls === "cbd" ? CBD_HERITAGE_KINDS : HERITAGE_KINDS;
      const kind = kinds[Math.floor(unit(seed, 0x1a, l.cell, l.lotNo) * kinds.length)];
      const id = `I${suburb.index * 10000 + (items.length % 10000)}`;
      const sig = unit(seed, 0x1b, l.cell, l.lotNo) < 0.15 ? "State" : "Local";
      items.push({ u0, u1, v0, v1, props: [`${kind} (${id})`, sig, id, "Item - General", epi] });
    }
  }
  return {
    ...zoningRuns(plan, pieces),
    fsr: merge(fsr),
    height: merge(height),
    lotSize: merge(lotSize),
    flood: merge(flood),
    bushfire: merge(bush),
    heritage: [...merge(hca), ...items],
  };
}

type Rect = { u0: number; u1: number; v0: number; v1: number };

// Bushland blocks (C2) next to the lot's block.
function nearBush(plan: Plan, l: Lot): Rect[] {
  if (plan.bushCells.size === 0) return [];
  const c = plan.cells[l.cell];
  if (!c) return [];
  const out: Rect[] = [];
  for (let dj = -1; dj <= 1; dj++) {
    for (let dk = -1; dk <= 1; dk++) {
      const b = plan.bushCells.get((c.j + dj) * 65536 + c.k + dk);
      if (b) out.push(b);
    }
  }
  return out;
}

function rectDistance(r: Rect, u: number, v: number): number {
  const du = Math.max(r.u0 - u, 0, u - r.u1);
  const dv = Math.max(r.v0 - v, 0, v - r.v1);
  return Math.hypot(du, dv);
}
