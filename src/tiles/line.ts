// A line feature as MVT LineString commands: each part projected, clipped to the buffered tile, snapped and thinned.
import type { Layer } from "../packs/types.ts";
import { latToY, type TileFrame } from "./math.ts";
import { zigzag } from "./mvt.ts";

const MOVE_TO = 1;
const LINE_TO = 2;
const command = (id: number, count: number) => (id & 0x7) | (count << 3);

/** The pieces of the polyline (flat x,y pairs) inside [lo, hi] on both axes (Liang-Barsky per segment). */
export function clipLine(pts: ArrayLike<number>, n: number, lo: number, hi: number): number[][] {
  const pieces: number[][] = [];
  let run: number[] | null = null;
  for (let i = 0; i + 1 < n; i++) {
    const x0 = pts[2 * i] as number;
    const y0 = pts[2 * i + 1] as number;
    const dx = (pts[2 * i + 2] as number) - x0;
    const dy = (pts[2 * i + 3] as number) - y0;
    let t0 = 0;
    let t1 = 1;
    let inside = true;
    for (const [p, q] of [
      [-dx, x0 - lo],
      [dx, hi - x0],
      [-dy, y0 - lo],
      [dy, hi - y0],
    ] as const) {
      if (p === 0) {
        if (q < 0) inside = false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (!inside || t0 > t1) {
      run = null;
      continue;
    }
    // A segment entering the square part-way starts a new piece; one continuing from the last does not.
    if (run === null || t0 > 0) {
      run = [x0 + t0 * dx, y0 + t0 * dy];
      pieces.push(run);
    }
    run.push(x0 + t1 * dx, y0 + t1 * dy);
    if (t1 < 1) run = null;
  }
  return pieces;
}

/** The piece on the integer grid, dropping vertices within `tol` of the last kept (the end always stays); x,y pairs. */
export function snapLine(piece: readonly number[], tol: number): number[] {
  const out: number[] = [];
  const n = piece.length / 2;
  for (let i = 0; i < n; i++) {
    const x = Math.round(piece[2 * i] as number);
    const y = Math.round(piece[2 * i + 1] as number);
    const k = out.length;
    if (k > 0) {
      const dx = x - (out[k - 2] as number);
      const dy = y - (out[k - 1] as number);
      if (dx === 0 && dy === 0) continue;
      if (dx * dx + dy * dy <= tol * tol) {
        if (i < n - 1) continue;
        // The end replaces a near last vertex, unless that vertex is the start.
        if (k >= 4) out.length = k - 2;
      }
    }
    out.push(x, y);
  }
  return out;
}

/** Feature i's LineString commands in tile units (one MoveTo + LineTo per drawn piece), or null when nothing shows. */
export function lineGeometry(layer: Layer, i: number, frame: TileFrame, tol: number, lo: number, hi: number) {
  const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
  const { scale, ox, oy } = frame;
  const out: number[] = [];
  let cx = 0;
  let cy = 0;
  for (let p = featureOffsets[i] as number; p < (featureOffsets[i + 1] as number); p++) {
    for (let r = polyOffsets[p] as number; r < (polyOffsets[p + 1] as number); r++) {
      const v0 = ringOffsets[r] as number;
      const n = (ringOffsets[r + 1] as number) - v0;
      const projected = new Float64Array(2 * n);
      for (let v = 0; v < n; v++) {
        projected[2 * v] = (((coords[2 * (v0 + v)] as number) + 180) / 360) * scale - ox;
        projected[2 * v + 1] = latToY(coords[2 * (v0 + v) + 1] as number) * scale - oy;
      }
      for (const piece of clipLine(projected, n, lo, hi)) {
        const pts = snapLine(piece, tol);
        const k = pts.length / 2;
        if (k < 2) continue;
        for (let s = 0; s < k; s++) {
          const x = pts[2 * s] as number;
          const y = pts[2 * s + 1] as number;
          if (s === 0) out.push(command(MOVE_TO, 1));
          out.push(zigzag(x - cx), zigzag(y - cy));
          if (s === 0) out.push(command(LINE_TO, k - 1));
          cx = x;
          cy = y;
        }
      }
    }
  }
  return out.length > 0 ? out : null;
}
