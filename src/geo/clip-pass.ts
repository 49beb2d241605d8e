// The clipping passes under clip.ts: one Sutherland-Hodgman pass of a ring by a half-plane, passes in turn over
// ping-pong scratch that grows as a pass adds points, and the work they do (counted, and bounded on request).

// Ping-pong scratch for clipping passes; grown on demand, never shrunk.
let bufA = new Float64Array(4096);
let bufB = new Float64Array(4096);

// Room for `points` points and a pass's output from them (at most twice as many), keeping what the scratch holds.
function ensure(points: number): void {
  const need = points * 4 + 16;
  if (bufA.length >= need) return;
  const a = new Float64Array(need * 2);
  a.set(bufA);
  bufA = a;
  const b = new Float64Array(need * 2);
  b.set(bufB);
  bufB = b;
}

/** Rings clipped to a window, and points put through clipping passes, since last zeroed: the overlap kernel's work. */
export const clipWork = { rings: 0, points: 0 };

/** Clipping refused by withClipBudget: the shapes would take more points than the budget allows. */
export class ClipBudgetError extends Error {}

// Points the current withClipBudget call may still clip; unbounded outside one.
let budgetLeft = Number.POSITIVE_INFINITY;

/** Runs `work`, refusing (ClipBudgetError) once its clipping passes would put more than `points` points through. */
export function withClipBudget<T>(points: number, work: () => T): T {
  const outer = budgetLeft;
  budgetLeft = points;
  try {
    return work();
  } finally {
    budgetLeft = outer;
  }
}

// One Sutherland-Hodgman pass; returns the number of points written to dst.
function clipPass(src: Float64Array, n: number, dst: Float64Array, a: number, b: number, c: number): number {
  if (n === 0) return 0;
  clipWork.points += n;
  budgetLeft -= n;
  if (budgetLeft < 0) throw new ClipBudgetError(`clipping passes over the budget of points`);
  let m = 0;
  let px = src[2 * n - 2] as number;
  let py = src[2 * n - 1] as number;
  let pd = a * px + b * py + c;
  for (let k = 0; k < n; k++) {
    const x = src[2 * k] as number;
    const y = src[2 * k + 1] as number;
    const d = a * x + b * y + c;
    if (d >= 0) {
      if (pd < 0) {
        const t = pd / (pd - d);
        dst[m++] = px + t * (x - px);
        dst[m++] = py + t * (y - py);
      }
      dst[m++] = x;
      dst[m++] = y;
    } else if (pd > 0) {
      const t = pd / (pd - d);
      dst[m++] = px + t * (x - px);
      dst[m++] = py + t * (y - py);
    }
    px = x;
    py = y;
    pd = d;
  }
  return m >> 1;
}

/** The scratch a ring of `points` points is written to before clipPasses. */
export function scratch(points: number): Float64Array {
  ensure(points);
  return bufA;
}

/** Clips the ring in the scratch (n0 points) by each plane (a, b, c) in turn; the result is `n` points of `out`. */
export function clipPasses(n0: number, planes: ArrayLike<number>): { out: Float64Array; n: number } {
  let n = n0;
  let inA = true;
  for (let k = 0; k + 2 < planes.length && n > 0; k += 3) {
    // A pass may add a point per edge it cuts: room is made before each, not once for the first.
    ensure(n);
    n = clipPass(
      inA ? bufA : bufB,
      n,
      inA ? bufB : bufA,
      planes[k] as number,
      planes[k + 1] as number,
      planes[k + 2] as number,
    );
    inA = !inA;
  }
  return { out: inA ? bufA : bufB, n };
}

export function signedAreaOf(buf: Float64Array, n: number): number {
  if (n < 3) return 0;
  let s = 0;
  let px = buf[2 * n - 2] as number;
  let py = buf[2 * n - 1] as number;
  for (let k = 0; k < n; k++) {
    const x = buf[2 * k] as number;
    const y = buf[2 * k + 1] as number;
    s += px * y - x * py;
    px = x;
    py = y;
  }
  return s / 2;
}
