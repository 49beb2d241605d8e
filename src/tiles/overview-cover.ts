// Below the lots' zoom, the land of the public packs that outrank a tile's pack (docs/design.md section 10): the cells
// of the tile their overview draws (blocks or runs of cells), where this pack's overview is not drawn, so an imported
// council's cadastre is not drawn over the world's at z10 to z13 either.
import type { PagedPack } from "../packs/paged/index.ts";
import { refuseDamaged } from "../packs/request-pages.ts";
import { blockCells, CELL, type CellMask, GRID } from "./block-walk.ts";
import { BUFFER, projector, type TileCoord, tileBBox } from "./math.ts";
import { runCorners } from "./overview.ts";

/** The cells of `tile` the overviews of `above` cover, or null when they cover none (nothing hidden). */
export async function overviewCover(above: readonly PagedPack[], tile: TileCoord): Promise<CellMask | null> {
  if (above.length === 0) return null;
  const box = tileBBox(tile, BUFFER);
  const read = await Promise.all(above.map((p) => p.overviewFor(box)));
  const mask: CellMask = new Uint8Array(GRID * GRID);
  let any = false;
  const mark = (cell: number) => {
    mask[cell] = 1;
    any = true;
  };
  const project = projector(tile);
  const a = new Float64Array(2);
  const b = new Float64Array(2);
  for (const { pages, blocks, refused } of read) {
    refuseDamaged(refused);
    blockCells(blocks, tile, mark);
    for (const page of pages)
      for (let i = 0; i < page.ns.length; i++) {
        runCorners(page, i, project, a, b);
        // The cells whose centres the run holds; a run narrower than a cell, the cell holding its centre.
        const c0 = Math.max(0, Math.ceil((a[0] as number) / CELL - 0.5));
        const c1 = Math.min(GRID - 1, Math.floor((b[0] as number) / CELL - 0.5));
        const r0 = Math.max(0, Math.ceil((a[1] as number) / CELL - 0.5));
        const r1 = Math.min(GRID - 1, Math.floor((b[1] as number) / CELL - 0.5));
        if (c0 <= c1 && r0 <= r1) {
          for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) mark(r * GRID + c);
          continue;
        }
        const cx = Math.floor(((a[0] as number) + (b[0] as number)) / 2 / CELL);
        const cy = Math.floor(((a[1] as number) + (b[1] as number)) / 2 / CELL);
        if (cx >= 0 && cx < GRID && cy >= 0 && cy < GRID) mark(cy * GRID + cx);
      }
  }
  return any ? mask : null;
}
