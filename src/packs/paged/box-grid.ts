// A uniform grid of boxes: the reader finds the pages under a point by arithmetic instead of walking a tree.

/**
 * Boxes bucketed by a uniform grid (cells in CSR form): a point's cell lists the few boxes that may hold it, in the
 * order they were added, so a lookup is arithmetic and a short scan instead of a tree walk.
 */
export type BoxGrid = {
  x0: number;
  y0: number;
  // Cells per unit of x and y.
  kx: number;
  ky: number;
  side: number;
  starts: Uint32Array;
  items: Uint32Array;
  bytes: number;
};

const cellOf = (v: number, v0: number, k: number, side: number): number => {
  const c = Math.floor((v - v0) * k);
  return c < 0 ? 0 : c >= side ? side - 1 : c;
};

/** A grid of `side` x `side` cells over [x0, y0, x1, y1] holding boxes 0..n-1 (`box(i)` gives [minX, minY, maxX, maxY]). */
export function buildBoxGrid(
  n: number,
  frame: readonly [number, number, number, number],
  side: number,
  box: (i: number, out: Float64Array) => void,
  maxItems = Number.POSITIVE_INFINITY,
): BoxGrid | null {
  const [x0, y0, x1, y1] = frame;
  const kx = side / Math.max(x1 - x0, Number.MIN_VALUE);
  const ky = side / Math.max(y1 - y0, Number.MIN_VALUE);
  const b = new Float64Array(4);
  const span = new Int32Array(4 * n);
  // The cells each box covers, summed from its span alone: boxes spanning most of the frame would fill every cell,
  // so the caller keeps its tree instead, decided before any cell is counted.
  let total = 0;
  for (let i = 0; i < n; i++) {
    box(i, b);
    const cx0 = cellOf(b[0] as number, x0, kx, side);
    const cy0 = cellOf(b[1] as number, y0, ky, side);
    const cx1 = cellOf(b[2] as number, x0, kx, side);
    const cy1 = cellOf(b[3] as number, y0, ky, side);
    span.set([cx0, cy0, cx1, cy1], 4 * i);
    total += Math.max(0, cx1 - cx0 + 1) * Math.max(0, cy1 - cy0 + 1);
    if (total > maxItems) return null;
  }
  const counts = new Uint32Array(side * side + 1);
  for (let i = 0; i < n; i++) {
    const [cx0, cy0, cx1, cy1] = span.subarray(4 * i, 4 * i + 4) as unknown as [number, number, number, number];
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) (counts[cy * side + cx + 1] as number)++;
  }
  for (let c = 1; c <= side * side; c++) counts[c] = (counts[c] as number) + (counts[c - 1] as number);
  const items = new Uint32Array(counts[side * side] as number);
  const fill = counts.slice(0, side * side);
  for (let i = 0; i < n; i++) {
    const [cx0, cy0, cx1, cy1] = span.subarray(4 * i, 4 * i + 4) as unknown as [number, number, number, number];
    for (let cy = cy0; cy <= cy1; cy++)
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = cy * side + cx;
        items[fill[c] as number] = i;
        fill[c] = (fill[c] as number) + 1;
      }
  }
  return { x0, y0, kx, ky, side, starts: counts, items, bytes: counts.byteLength + items.byteLength + 64 };
}

/** The grid cell holding the point (points outside the frame fall in the nearest edge cell). */
export function gridCell(g: BoxGrid, x: number, y: number): number {
  return cellOf(y, g.y0, g.ky, g.side) * g.side + cellOf(x, g.x0, g.kx, g.side);
}
