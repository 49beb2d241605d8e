// Street blocks at the lowest zooms (z10 and z11), dissolved into a grid of cells two pixels wide: there a block is a
// pixel or two, so drawing each one made a tile of a whole city of over a megabyte, where a cell grid draws the same
// picture in a tenth of it. Each cell takes the zone of the largest block over its centre (or, for a block smaller
// than a cell, of the block whose centre it holds); a street a cell wide takes its blocks' zone, as it would vanish at
// this zoom anyway; runs of one zone merge across rows and down columns.
import type { BlockPage } from "../packs/paged/index.ts";
import { blockCells, CELL, type CellMask, GRID } from "./block-walk.ts";
import { BLOCKS_LAYER } from "./blocks.ts";
import type { TileCoord } from "./math.ts";
import { emptyDictionary, grow } from "./merge.ts";
import { GEOM_POLYGON, type TileFeature, type TileLayer, zigzag } from "./mvt.ts";

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

type Rect = { x0: number; x1: number; y0: number; y1: number; zone: number };

/** Runs of one zone along each row, each extended down while the next row has the same run. */
function rectangles(zone: Int32Array): Rect[] {
  const done: Rect[] = [];
  let open = new Map<number, Rect>();
  for (let r = 0; r < GRID; r++) {
    const next = new Map<number, Rect>();
    let c = 0;
    while (c < GRID) {
      const z = zone[r * GRID + c] as number;
      let e = c + 1;
      while (e < GRID && zone[r * GRID + e] === z) e++;
      if (z >= 0) {
        const key = (c * (GRID + 1) + e) * 65536 + z;
        const above = open.get(key);
        if (above) {
          above.y1 = r + 1;
          open.delete(key);
          next.set(key, above);
        } else next.set(key, { x0: c, x1: e, y0: r, y1: r + 1, zone: z });
      }
      c = e;
    }
    for (const rect of open.values()) done.push(rect);
    open = next;
  }
  for (const rect of open.values()) done.push(rect);
  return done;
}

/** The `blocks` layer of a low-zoom tile: one multipolygon of cell rectangles per zone, none on a `hidden` cell. */
export function blockCellsLayer(
  pages: readonly BlockPage[],
  zones: readonly string[],
  tile: TileCoord,
  hidden: CellMask | null = null,
): TileLayer {
  const zone = closeStreets(paint(pages, tile));
  if (hidden) for (let c = 0; c < zone.length; c++) if (hidden[c]) zone[c] = -1;
  const byZone = new Map<number, Rect[]>();
  for (const rect of rectangles(zone)) {
    const list = byZone.get(rect.zone) ?? [];
    list.push(rect);
    byZone.set(rect.zone, list);
  }
  const dict = emptyDictionary();
  dict.keys.push("zone");
  const features: TileFeature[] = [];
  for (const [code, rects] of byZone) {
    const vi = dict.values.push(zones[code] ?? "") - 1;
    const geometry: number[] = [];
    let [cx, cy] = [0, 0];
    for (const { x0, x1, y0, y1 } of rects) {
      const [ax, ay, bx, by] = [x0 * CELL, y0 * CELL, x1 * CELL, y1 * CELL];
      // MoveTo, LineTo x3, ClosePath: clockwise with y down, an exterior ring; the cursor ends at its last corner.
      geometry.push(9, zigzag(ax - cx), zigzag(ay - cy), 26, zigzag(bx - ax), 0, 0, zigzag(by - ay));
      geometry.push(zigzag(ax - bx), 0, 15);
      [cx, cy] = [ax, by];
    }
    features.push({ id: features.length, type: GEOM_POLYGON, geometry, tags: Uint32Array.of(0, vi) });
  }
  dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
  dict.valueRemap = grow(dict.valueRemap, dict.values.length);
  return { name: BLOCKS_LAYER, features, dictionary: dict };
}
