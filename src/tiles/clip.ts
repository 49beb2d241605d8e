// Ring clipping to the buffered tile square (Sutherland-Hodgman), for rings that cross the tile's buffer.

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
