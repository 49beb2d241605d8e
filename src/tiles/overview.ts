// The generalised zoning of a v2 pack's overview pages as one MVT layer: the overview's cells (1/1024 degree) that
// meet the tile, each zone's connected cells one polygon (cell-layer.ts), so a pack without street blocks (an import,
// an upload) draws zone patches at z10 to z13, not a rectangle a run whose seams striped the map (issue 49).
import { CELLS_PER_DEGREE, type OverviewPage } from "../packs/paged/index.ts";
import { layerMinZoom } from "./layers.ts";
import { type CellMask, hiddenAt } from "./block-walk.ts";
import { cellsLayer } from "./cell-layer.ts";
import { BUFFER, EXTENT, type Projector, projector, type TileCoord, tileBBox } from "./math.ts";
import type { TileLayer } from "./mvt.ts";

// Zooms drawn from the overview (lots are drawn from z14); the zoning layer's own minimum zoom.
export const OVERVIEW_MIN_ZOOM = layerMinZoom("zoning");

const clamp = (v: number): number => Math.max(-BUFFER, Math.min(EXTENT + BUFFER, Math.round(v)));

/** The north-west (into `a`) and south-east (into `b`) corners of a page's run `i`, in tile units (y southward). */
export function runCorners(page: OverviewPage, i: number, project: Projector, a: Float64Array, b: Float64Array): void {
  const x = page.xs[i] as number;
  const y = page.ys[i] as number;
  project(x / CELLS_PER_DEGREE, (y + 1) / CELLS_PER_DEGREE, a, 0);
  project((x + (page.ns[i] as number)) / CELLS_PER_DEGREE, y / CELLS_PER_DEGREE, b, 0);
}

/** Tile units of the grid lines of the overview's cells from `from` on, `n` + 1 of them, along x or y. */
function gridLines(tile: TileCoord, from: number, n: number, axis: 0 | 1): Float64Array {
  const project = projector(tile);
  const out = new Float64Array(n + 1);
  const p = new Float64Array(2);
  for (let i = 0; i <= n; i++) {
    const deg = (axis === 0 ? from + i : from - i) / CELLS_PER_DEGREE;
    project(axis === 0 ? deg : 0, axis === 0 ? 0 : deg, p, 0);
    out[i] = p[axis] as number;
  }
  return out;
}

/**
 * A "zoning" layer (attribute `zone`) of the overview's cells meeting the tile, one feature a zone, but a cell whose
 * centre is on a `hidden` cell of the tile's grid (a higher pack's land).
 */
export function overviewLayer(
  pages: readonly OverviewPage[],
  zones: readonly string[],
  tile: TileCoord,
  hidden: CellMask | null = null,
): TileLayer {
  // The overview's cells meeting the tile and its buffer, cut to those the runs reach: columns from x0 east, rows from
  // the one below `top` south (a small pack's grid at z10 is its own few cells, not the tile's 360 by 300).
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const [west, east] = [Math.floor(w * CELLS_PER_DEGREE), Math.ceil(e * CELLS_PER_DEGREE)];
  const [south, north] = [Math.floor(s * CELLS_PER_DEGREE), Math.ceil(n * CELLS_PER_DEGREE)];
  let [x0, x1, y0, y1] = [east, west, north, south];
  for (const page of pages)
    for (let i = 0; i < page.ns.length; i++) {
      const [x, y] = [page.xs[i] as number, page.ys[i] as number];
      if (y < south || y >= north || x >= east || x + (page.ns[i] as number) <= west) continue;
      [x0, x1] = [Math.min(x0, Math.max(west, x)), Math.max(x1, Math.min(east, x + (page.ns[i] as number)))];
      [y0, y1] = [Math.min(y0, y), Math.max(y1, y + 1)];
    }
  const [cols, rows, top] = [Math.max(0, x1 - x0), Math.max(0, y1 - y0), y1];
  const zone = new Int32Array(cols * rows).fill(-1);
  for (const page of pages)
    for (let i = 0; i < page.ns.length; i++) {
      const r = top - 1 - (page.ys[i] as number);
      if (r < 0 || r >= rows) continue;
      const a = Math.max(0, (page.xs[i] as number) - x0);
      const b = Math.min(cols, (page.xs[i] as number) + (page.ns[i] as number) - x0);
      zone.fill(page.zones[i] as number, r * cols + a, r * cols + Math.max(a, b));
    }
  const xs = gridLines(tile, x0, cols, 0);
  const ys = gridLines(tile, top, rows, 1);
  if (hidden)
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        const [x, y] = [
          ((xs[c] as number) + (xs[c + 1] as number)) / 2,
          ((ys[r] as number) + (ys[r + 1] as number)) / 2,
        ];
        if (hiddenAt(hidden, x, y)) zone[r * cols + c] = -1;
      }
  // The outermost grid lines lie past the buffer: pulled onto it, so the tile's clip and not a stroke draws them.
  return cellsLayer(
    "zoning",
    zone,
    cols,
    zones,
    (i) => clamp(xs[i] as number),
    (j) => clamp(ys[j] as number),
  );
}
