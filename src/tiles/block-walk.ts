// The cells of a tile's grid each street block reaches: what the low-zoom cells are painted from, and what tells a
// block under a higher pack's land (a cell it reaches is hidden) from one beside it.
import type { BlockPage } from "../packs/paged/index.ts";
import { EXTENT, projector, type TileCoord } from "./math.ts";

/** A tile's cells (GRID by GRID, row-major), 1 where something hides what lies under it. */
export type CellMask = Uint8Array;

// 16 tile units: 2 px of a tile drawn 512 px wide.
export const CELL = 16;
export const GRID = EXTENT / CELL;

/** Whether the cell holding (x, y), in tile units, is hidden; a point off the tile is not. */
export function hiddenAt(mask: CellMask, x: number, y: number): boolean {
  const c = Math.floor(x / CELL);
  const r = Math.floor(y / CELL);
  return c >= 0 && c < GRID && r >= 0 && r < GRID && mask[r * GRID + c] === 1;
}

/** Whether (px, py) lies inside the quad's ring (corners at q[0..7], any winding). */
function inQuad(q: Float64Array, px: number, py: number): boolean {
  let inside = false;
  for (let i = 0, j = 3; i < 4; j = i++) {
    const xi = q[2 * i] as number;
    const yi = q[2 * i + 1] as number;
    const xj = q[2 * j] as number;
    const yj = q[2 * j + 1] as number;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function quadArea(q: Float64Array): number {
  let a = 0;
  for (let i = 0, j = 3; i < 4; j = i++)
    a += (q[2 * j] as number) * (q[2 * i + 1] as number) - (q[2 * i] as number) * (q[2 * j + 1] as number);
  return Math.abs(a) / 2;
}

/**
 * Each cell a block of the pages reaches, with the block's area, zone and number (in the pages' order): the cells whose
 * centres it holds, or for a block smaller than a cell, the cell the centre of its box falls in.
 */
export function blockCells(
  pages: readonly BlockPage[],
  tile: TileCoord,
  claim: (cell: number, area: number, zone: number, block: number) => void,
): void {
  const project = projector(tile);
  const q = new Float64Array(8);
  let block = -1;
  for (const page of pages) {
    const { coords, ringOffsets, polyOffsets, featureOffsets } = page.geometry;
    for (let i = 0; i < page.count; i++) {
      block++;
      const v0 = ringOffsets[polyOffsets[featureOffsets[i] as number] as number] as number;
      for (let k = 0; k < 4; k++) project(coords[2 * (v0 + k)] as number, coords[2 * (v0 + k) + 1] as number, q, 2 * k);
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let k = 0; k < 8; k += 2) {
        x0 = Math.min(x0, q[k] as number);
        x1 = Math.max(x1, q[k] as number);
        y0 = Math.min(y0, q[k + 1] as number);
        y1 = Math.max(y1, q[k + 1] as number);
      }
      // The cells whose centres the quad's box holds.
      const c0 = Math.max(0, Math.ceil(x0 / CELL - 0.5));
      const c1 = Math.min(GRID - 1, Math.floor(x1 / CELL - 0.5));
      const r0 = Math.max(0, Math.ceil(y0 / CELL - 0.5));
      const r1 = Math.min(GRID - 1, Math.floor(y1 / CELL - 0.5));
      if (x1 < 0 || y1 < 0 || x0 >= EXTENT || y0 >= EXTENT) continue;
      const a = quadArea(q);
      const z = page.zones[i] as number;
      let any = false;
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++)
          if (inQuad(q, (c + 0.5) * CELL, (r + 0.5) * CELL)) {
            any = true;
            claim(r * GRID + c, a, z, block);
          }
      if (any) continue;
      // Smaller than a cell: it claims the cell the centre of its box falls in.
      const cx = Math.floor((x0 + x1) / 2 / CELL);
      const cy = Math.floor((y0 + y1) / 2 / CELL);
      if (cx >= 0 && cx < GRID && cy >= 0 && cy < GRID) claim(cy * GRID + cx, a, z, block);
    }
  }
}
