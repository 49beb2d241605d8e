// A lot's frontage measured on its streets (issue 50, item 4): the length of its boundary along a street's road reserve,
// in metres in any local plane. A battle-axe lot meets the street only at its handle, so its frontage is the handle's width.
import { mergeIntervals } from "./intervals.ts";

type XY = readonly [number, number];

/** One straight piece of a street: its centre line from `a` to `b`, the reserve `halfWidthM` either side; `key` names the street. */
export type StreetLine = { key: string; a: XY; b: XY; halfWidthM: number };

// A boundary edge lies on a reserve when it runs within 10° of the street and within 0.5 m of the reserve's edge.
const PARALLEL_SIN = Math.sin((10 * Math.PI) / 180);
const ON_EDGE_M = 0.5;
// A street touched for less than this (a corner's point, a splay's sliver) is not a frontage.
export const MIN_FRONTAGE_M = 1;

/** Metres of the ring's boundary on each street (by key), each stretch counted once. */
export function boundaryOnStreets(ring: readonly XY[], streets: readonly StreetLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of streets) {
    const dx = s.b[0] - s.a[0];
    const dy = s.b[1] - s.a[1];
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const ux = dx / len;
    const uy = dy / len;
    // Stretches along this piece, in its own coordinates (`along` from a), one list for each kerb (made on a first hit).
    let sides: [number, number][][] | null = null;
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i] as XY;
      const q = ring[(i + 1) % ring.length] as XY;
      const el = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (el === 0) continue;
      const sp = (p[0] - s.a[0]) * ux + (p[1] - s.a[1]) * uy;
      const tp = (p[1] - s.a[1]) * ux - (p[0] - s.a[0]) * uy;
      const sq = (q[0] - s.a[0]) * ux + (q[1] - s.a[1]) * uy;
      const tq = (q[1] - s.a[1]) * ux - (q[0] - s.a[0]) * uy;
      if (Math.abs(tq - tp) > el * PARALLEL_SIN) continue;
      if (Math.abs(Math.abs(tp) - s.halfWidthM) > ON_EDGE_M || Math.abs(Math.abs(tq) - s.halfWidthM) > ON_EDGE_M)
        continue;
      const from = Math.max(0, Math.min(sp, sq));
      const to = Math.min(len, Math.max(sp, sq));
      if (to <= from) continue;
      sides ??= [[], []];
      (sides[tp > 0 ? 1 : 0] as [number, number][]).push([from, to]);
    }
    for (const list of sides ?? []) {
      if (list.length === 0) continue;
      const metres = mergeIntervals(list).reduce((sum, [a, b]) => sum + (b - a), 0);
      out.set(s.key, (out.get(s.key) ?? 0) + metres);
    }
  }
  return out;
}

/**
 * The lot's frontage: its boundary on `primary` (the street of its address) where it meets it, else on the street it
 * meets for the shortest stretch (a corner lot's frontage is its shorter street boundary); null where it meets none.
 */
export function streetFrontageM(ring: readonly XY[], streets: readonly StreetLine[], primary?: string): number | null {
  const on = boundaryOnStreets(ring, streets);
  const main = primary === undefined ? undefined : on.get(primary);
  if (main !== undefined && main >= MIN_FRONTAGE_M) return main;
  let best: number | null = null;
  for (const m of on.values()) if (m >= MIN_FRONTAGE_M && (best === null || m < best)) best = m;
  return best;
}
