// Street blocks at the lowest zooms (z10 and z11), dissolved into a grid of cells two pixels wide: there a block is a
// pixel or two, so drawing each one made a tile of a whole city of over a megabyte, where a cell grid draws the same
// picture in a tenth of it. Each cell takes the zone of the largest block over its centre (or, for a block smaller
// than a cell, of the block whose centre it holds); a street a cell wide takes its blocks' zone, as it would vanish at
// this zoom anyway; the cells of one zone dissolve into polygons (cell-rings.ts).
import type { BlockPage } from "../packs/paged/index.ts";
import { blockCells, CELL, type CellMask, GRID } from "./block-walk.ts";
import { BLOCKS_LAYER } from "./blocks.ts";
import { cellsLayer } from "./cell-layer.ts";
import { BUFFER, EXTENT, type TileCoord } from "./math.ts";
import type { TileLayer } from "./mvt.ts";

/** The highest zoom drawn as cells; from the next one up every block is its own quad. */
export const BLOCK_CELLS_MAX_ZOOM = 11;

/** Each cell's zone code (or -1), painted from the blocks of the pages: the largest block over it wins. */
function paint(pages: readonly BlockPage[], tile: TileCoord): Int32Array {
  const zone = new Int32Array(GRID * GRID).fill(-1);
  const area = new Float64Array(GRID * GRID);
  blockCells(pages, tile, (c, a, z) => {
    if (a <= (area[c] as number)) return;
    area[c] = a;
    zone[c] = z;
  });
  return zone;
}

/** Empty cells with at least half their eight neighbours painted (a street between blocks) take their commonest zone. */
function closeStreets(zone: Int32Array): Int32Array {
  const out = zone.slice();
  const seen: number[] = [];
  for (let r = 0; r < GRID; r++)
    for (let c = 0; c < GRID; c++) {
      if ((zone[r * GRID + c] as number) >= 0) continue;
      seen.length = 0;
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const [rr, cc] = [r + dr, c + dc];
          if ((dr || dc) && rr >= 0 && rr < GRID && cc >= 0 && cc < GRID) {
            const z = zone[rr * GRID + cc] as number;
            if (z >= 0) seen.push(z);
          }
        }
      if (seen.length < 4) continue;
      let best = -1;
      let bestCount = 0;
      for (const z of seen) {
        const n = seen.filter((x) => x === z).length;
        if (n > bestCount) [best, bestCount] = [z, n];
      }
      out[r * GRID + c] = best;
    }
  return out;
}

// A vertex's tile unit: the tile's edge pushed into the buffer, so the map's clip, not its antialiasing, draws it.
const unit = (i: number) => (i === 0 ? -BUFFER : i === GRID ? EXTENT + BUFFER : i * CELL);

/** The `blocks` layer of a low-zoom tile: one multipolygon of dissolved cells per zone, none on a `hidden` cell. */
export function blockCellsLayer(
  pages: readonly BlockPage[],
  zones: readonly string[],
  tile: TileCoord,
  hidden: CellMask | null = null,
): TileLayer {
  const zone = closeStreets(paint(pages, tile));
  if (hidden) for (let c = 0; c < zone.length; c++) if (hidden[c]) zone[c] = -1;
  return cellsLayer(BLOCKS_LAYER, zone, GRID, zones, unit, unit);
}
