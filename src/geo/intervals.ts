// Intervals on a line: merging those that overlap or touch (street stretches, a lot's boundary along a street).

// Intervals touching within a millimetre are one.
const TOUCH = 1e-3;

/** The intervals merged where they overlap or touch, in order. */
export function mergeIntervals(list: readonly [number, number][]): [number, number][] {
  const sorted = [...list].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + TOUCH) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
