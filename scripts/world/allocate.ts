// How much of each suburb is built on: its character's share of its blocks, all scaled by one factor so the
// world holds about the number of lots asked for. Below full size the bushland shrinks with the same factor;
// every suburb keeps at least its first block with lots.
import type { CellCensus } from "./lots.ts";
import type { Extent } from "./plan.ts";

export type SuburbCensus = { suburb: number; urbanShare: number; cells: CellCensus[] };

type Prepared = { n: number; urbanSum: Float64Array; restSum: Float64Array; min: number; share: number };

function prepare(c: SuburbCensus): Prepared {
  const n = c.cells.length;
  // Prefix sums over blocks in rank order: lots if built on, lots if left as bushland.
  const urbanSum = new Float64Array(n + 1);
  const restSum = new Float64Array(n + 1);
  let min = n;
  c.cells.forEach((x, r) => {
    urbanSum[r + 1] = (urbanSum[r] as number) + x.urban;
    restSum[r + 1] = (restSum[r] as number) + x.rest;
    if (min === n && x.urban > 0) min = r + 1;
  });
  return { n, urbanSum, restSum, min: Math.min(min, n), share: c.urbanShare };
}

function extentAt(p: Prepared, k: number): Extent {
  const urban = Math.max(p.min, Math.min(p.n, Math.ceil(Math.min(1, p.share * k) * p.n)));
  return { urban, rest: Math.max(urban, Math.min(p.n, Math.ceil(Math.min(1, k) * p.n))) };
}

function lotsAt(p: Prepared, e: Extent): number {
  return (p.urbanSum[e.urban] as number) + (p.restSum[e.rest] as number) - (p.restSum[e.urban] as number);
}

/** Each suburb's extent (in census order) for about `target` lots, and the lots that gives. */
export function allocate(census: readonly SuburbCensus[], target: number): { extents: Extent[]; lots: number } {
  const ps = census.map(prepare);
  const total = (k: number) => ps.reduce((s, p) => s + lotsAt(p, extentAt(p, k)), 0);
  const minShare = Math.min(...ps.map((p) => p.share).filter((x) => x > 0), 1);
  let lo = 0;
  let hi = 1 / minShare;
  if (total(hi) <= target) lo = hi;
  else {
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (total(mid) < target) lo = mid;
      else hi = mid;
    }
    // The smallest factor reaching the target, unless the one just below it is nearer.
    if (Math.abs(total(hi) - target) <= Math.abs(target - total(lo))) lo = hi;
  }
  const extents = ps.map((p) => extentAt(p, lo));
  return { extents, lots: ps.reduce((s, p, i) => s + lotsAt(p, extents[i] as Extent), 0) };
}

/** Lots a suburb's census gives at an extent. */
export function lotsOf(cells: readonly CellCensus[], e: Extent): number {
  let n = 0;
  cells.forEach((c, r) => {
    n += r < e.urban ? c.urban : r < e.rest ? c.rest : 0;
  });
  return n;
}
