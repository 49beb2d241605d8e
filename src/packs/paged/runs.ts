// Which byte ranges a set of pages is read in: consecutive pages (and gaps up to `gapBytes`) in one read.
export type Run = { pages: number[]; start: number; end: number };

/** Groups sorted page numbers into reads; a read spans at most `maxReadBytes` unless one page alone is larger. */
export function planRuns(
  offsets: Float64Array,
  sorted: readonly number[],
  gapBytes: number,
  maxReadBytes: number,
): Run[] {
  const runs: Run[] = [];
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i] as number;
    const start = offsets[first] as number;
    const pages = [first];
    let j = i + 1;
    while (j < sorted.length) {
      const no = sorted[j] as number;
      const prevEnd = offsets[(sorted[j - 1] as number) + 1] as number;
      if ((offsets[no] as number) - prevEnd > gapBytes || (offsets[no + 1] as number) - start > maxReadBytes) break;
      pages.push(no);
      j++;
    }
    runs.push({ pages, start, end: offsets[(pages[pages.length - 1] as number) + 1] as number });
    i = j;
  }
  return runs;
}

/** The smallest gap allowance that brings `sorted` down to at most `maxRuns` reads (Infinity when none can). */
export function gapFor(
  offsets: Float64Array,
  sorted: readonly number[],
  maxRuns: number,
  maxReadBytes: number,
): number {
  if (planRuns(offsets, sorted, 0, maxReadBytes).length <= maxRuns) return 0;
  const gaps = [
    ...new Set(
      sorted.slice(1).map((no, k) => (offsets[no] as number) - (offsets[(sorted[k] as number) + 1] as number)),
    ),
  ]
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  // The fewest runs grow as the allowance grows: binary search the distinct gaps.
  let lo = 0;
  let hi = gaps.length - 1;
  let best = Infinity;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const g = gaps[mid] as number;
    if (planRuns(offsets, sorted, g, maxReadBytes).length <= maxRuns) {
      best = g;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return best;
}

export type ReadPlan = { gapBytes?: number; maxReads?: number; maxReadBytes: number };

/**
 * The reads of sorted pages: gaps up to `gapBytes` read through, and with `maxReads` the smallest gaps that bring
 * the reads down to that many (none over `maxReadBytes`: when no plan fits, the fewest reads that do).
 */
export function planReads(offsets: Float64Array, sorted: readonly number[], plan: ReadPlan): Run[] {
  const { gapBytes = 0, maxReads, maxReadBytes } = plan;
  const gap = maxReads === undefined ? gapBytes : Math.max(gapBytes, gapFor(offsets, sorted, maxReads, maxReadBytes));
  return planRuns(offsets, sorted, gap, maxReadBytes);
}
