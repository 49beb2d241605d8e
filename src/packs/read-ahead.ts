// Reads ahead the pages a batch's points will ask for: one plan for all of them, no more requests than points.
import { type PagedPack, readPlan } from "./paged/index.ts";

// The share of the page cache a read-ahead may fill: more would be evicted before the rows that need it run.
const CACHE_SHARE = 4;

/**
 * Reads into the page cache the pages under every point, in at most one range request a point: pages next to each
 * other in one read, and where that is still more reads than points, the closest ones merged (gaps read through).
 * Rows then find their pages cached. A pack whose pages would fill more than a quarter of the cache is left to its
 * rows; a damaged page is left for the row that needs it to refuse.
 */
export async function readAheadPoints(
  paged: readonly PagedPack[],
  points: readonly (readonly [number, number])[],
  signal?: AbortSignal,
): Promise<void> {
  if (points.length === 0) return;
  for (const pack of paged) {
    const s = await pack.snapshot(signal);
    const nos = new Set<number>();
    for (const [lon, lat] of points) for (const no of pack.pagesInBox(s, [lon, lat, lon, lat])) nos.add(no);
    if (nos.size === 0) continue;
    const sorted = [...nos].sort((a, b) => a - b);
    if (pack.measure(s, sorted).bytes * CACHE_SHARE > pack.cacheBytesLimit) continue;
    await readPlan(pack.planUpTo(s, sorted, points.length), { signal });
  }
}
