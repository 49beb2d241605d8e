// Ring clipping to the buffered tile square (Sutherland-Hodgman), for rings that cross the tile's buffer.

// Two buffers the edges pass points between (x, y pairs), reused from ring to ring.
let bufA = new Float64Array(1024);
let bufB = new Float64Array(1024);

/**
 * Clips the closed ring of the first `n` points of `pts` (flat x,y pairs) to [lo, hi] on both axes. The result,
 * an open ring, is the first `count` points of `points` (a scratch array, valid until the next call).
 */
export function clipRing(
  pts: Float64Array,
  n: number,
  lo: number,
  hi: number,
): { points: Float64Array; count: number } {
  let src = pts;
  let count = n;
  for (let edge = 0; edge < 4 && count >= 3; edge++) {
    const axis = edge < 2 ? 0 : 1;
    const low = edge % 2 === 0;
    const bound = low ? lo : hi;
    // An edge no point lies beyond leaves the ring as it is.
    let all = true;
    for (let i = 0; i < count; i++) {
      const v = src[2 * i + axis] as number;
      if (low ? v < bound : v > bound) {
        all = false;
        break;
      }
    }
    if (all) continue;
    if (src !== bufA && bufA.length < 4 * count) bufA = new Float64Array(8 * count);
    else if (src === bufA && bufB.length < 4 * count) bufB = new Float64Array(8 * count);
    const dst = src === bufA ? bufB : bufA;
    count = clipEdge(src, count, dst, axis, low, bound);
    src = dst;
  }
  return { points: src, count };
}

// edge: x >= lo, x <= hi, y >= lo or y <= hi (axis 0 is x; `low` for the >= side); returns the points written.
function clipEdge(pts: Float64Array, n: number, out: Float64Array, axis: number, low: boolean, bound: number): number {
  let k = 0;
  let px = pts[2 * n - 2] as number;
  let py = pts[2 * n - 1] as number;
  let pv = axis === 0 ? px : py;
  let pIn = low ? pv >= bound : pv <= bound;
  for (let i = 0; i < n; i++) {
    const cx = pts[2 * i] as number;
    const cy = pts[2 * i + 1] as number;
    const cv = axis === 0 ? cx : cy;
    const cIn = low ? cv >= bound : cv <= bound;
    if (cIn !== pIn) {
      const t = (bound - pv) / (cv - pv);
      out[2 * k] = axis === 0 ? bound : px + t * (cx - px);
      out[2 * k + 1] = axis === 0 ? py + t * (cy - py) : bound;
      k++;
    }
    if (cIn) {
      out[2 * k] = cx;
      out[2 * k + 1] = cy;
      k++;
    }
    px = cx;
    py = cy;
    pv = cv;
    pIn = cIn;
  }
  return k;
}
