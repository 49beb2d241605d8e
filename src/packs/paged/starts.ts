// Runs laid end to end, named by their starts (each run's first item, then one past the last): which run holds an item.

/** The run holding item `i`: the last of `starts` (all but its final end) at or below it. */
export function runAt(starts: ArrayLike<number>, i: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
