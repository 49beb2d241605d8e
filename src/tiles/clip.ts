// Ring clipping to the buffered tile square (Sutherland-Hodgman) and per-zoom simplification on the tile grid.

/** Clips a closed ring given as flat x,y pairs to [lo, hi] on both axes; returns flat pairs (open ring). */
export function clipRing(ring: number[], lo: number, hi: number): number[] {
  let out = ring;
  for (let edge = 0; edge < 4 && out.length >= 6; edge++) out = clipEdge(out, edge, lo, hi);
  return out;
}

// edge 0: x >= lo, 1: x <= hi, 2: y >= lo, 3: y <= hi
function clipEdge(pts: number[], edge: number, lo: number, hi: number): number[] {
  const axis = edge < 2 ? 0 : 1;
  const bound = edge % 2 === 0 ? lo : hi;
  const inside = edge % 2 === 0 ? (v: number) => v >= bound : (v: number) => v <= bound;
  const out: number[] = [];
  const n = pts.length / 2;
  let px = pts[2 * n - 2] as number;
  let py = pts[2 * n - 1] as number;
  let pIn = inside(axis === 0 ? px : py);
  for (let i = 0; i < n; i++) {
    const cx = pts[2 * i] as number;
    const cy = pts[2 * i + 1] as number;
    const cIn = inside(axis === 0 ? cx : cy);
    if (cIn !== pIn) {
      const t = ((axis === 0 ? bound - px : bound - py) / (axis === 0 ? cx - px : cy - py)) as number;
      out.push(axis === 0 ? bound : px + t * (cx - px), axis === 0 ? py + t * (cy - py) : bound);
    }
    if (cIn) out.push(cx, cy);
    px = cx;
    py = cy;
    pIn = cIn;
  }
  return out;
}

/**
 * Rounds to the integer grid and drops vertices within `tolerance` units of the last kept one, and
 * collinear ones: at low zoom many vertices share a grid cell, so this is the per-zoom simplification.
 */
export function snapRing(pts: number[], tolerance: number): number[] {
  const out: number[] = [];
  const tol2 = tolerance * tolerance;
  for (let i = 0; i < pts.length; i += 2) {
    const x = Math.round(pts[i] as number);
    const y = Math.round(pts[i + 1] as number);
    const k = out.length;
    if (k >= 2) {
      const dx = x - (out[k - 2] as number);
      const dy = y - (out[k - 1] as number);
      if (dx * dx + dy * dy <= tol2) continue;
    }
    if (k >= 4) {
      const ax = out[k - 4] as number;
      const ay = out[k - 3] as number;
      const bx = out[k - 2] as number;
      const by = out[k - 1] as number;
      if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) === 0) {
        out[k - 2] = x;
        out[k - 1] = y;
        continue;
      }
    }
    out.push(x, y);
  }
  // The closing vertex is implied: drop a last vertex equal to the first.
  const k = out.length;
  if (k >= 4 && out[0] === out[k - 2] && out[1] === out[k - 1]) out.length = k - 2;
  return out;
}

/** Twice the signed area in tile units (positive = clockwise on screen, y down: an MVT exterior ring). */
export function ringArea2(pts: number[]): number {
  let a = 0;
  const n = pts.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++)
    a += (pts[2 * j] as number) * (pts[2 * i + 1] as number) - (pts[2 * i] as number) * (pts[2 * j + 1] as number);
  return a;
}

export function reverseRing(pts: number[]): number[] {
  const out: number[] = new Array(pts.length);
  const n = pts.length / 2;
  for (let i = 0; i < n; i++) {
    out[2 * i] = pts[2 * (n - 1 - i)] as number;
    out[2 * i + 1] = pts[2 * (n - 1 - i) + 1] as number;
  }
  return out;
}
