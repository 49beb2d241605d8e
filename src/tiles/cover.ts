// The lots of public packs that outrank a tile's pack (docs/design.md section 10): a lot of the tile's pack whose label
// point lies in one of them is not drawn (underHigherLot), so an imported council's cadastre is not drawn over the world's.
import type { BBox } from "../geo/bbox.ts";
import { leafBoxes } from "../packs/flatbush-walk.ts";
import type { PagedPack } from "../packs/paged/index.ts";
import { pagesFor } from "../packs/request-pages.ts";
import type { Pack } from "../packs/types.ts";
import type { TileCover } from "./paged-lots.ts";
import { TILE_MAX_READS } from "./prebuilt-tiles.ts";

const PARCELS = "parcels";

export type { TileCover };

const meets = (a: BBox, b: BBox) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
const within = (inner: BBox, outer: BBox) =>
  inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];

/** The packs of `above` with a page in `box` (none for no box), from their roots alone. */
export async function packsWithPagesIn(above: readonly PagedPack[], box: BBox | null): Promise<PagedPack[]> {
  const under: PagedPack[] = [];
  if (box === null) return under;
  for (const pack of above) {
    const s = pack.current() ?? (await pack.snapshot());
    if (pack.pagesInBox(s, box).length > 0) under.push(pack);
  }
  return under;
}

/** The lots of `above` in `box`, or null when none of them has a page there (then nothing is read). */
export async function readCover(above: readonly PagedPack[], box: BBox): Promise<TileCover | null> {
  const under = await packsWithPagesIn(above, box);
  if (under.length === 0) return null;
  const views = await pagesFor(under, [{ box }], { maxReads: TILE_MAX_READS });
  const layers = views.flatMap((v) => {
    const layer = v.layers.get(PARCELS);
    return layer && layer.count > 0 && meets(layer.bbox, box) ? [layer] : [];
  });
  return layers.length > 0 ? { layers, box } : null;
}

/** The union of the boxes of the lots of `views` meeting `box` (where their label points can lie), or null. */
export function lotsExtent(views: readonly Pack[], box: BBox): BBox | null {
  const [w, s, e, n] = box;
  const out: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const view of views) {
    const index = view.layers.get(PARCELS)?.index;
    if (!index) continue;
    const boxes = leafBoxes(index);
    for (let pos = 0, end = 4 * index.numItems; pos < end; pos += 4) {
      const x0 = boxes[pos] as number;
      const y0 = boxes[pos + 1] as number;
      const x1 = boxes[pos + 2] as number;
      const y1 = boxes[pos + 3] as number;
      if (e < x0 || n < y0 || w > x1 || s > y1) continue;
      if (x0 < out[0]) out[0] = x0;
      if (y0 < out[1]) out[1] = y0;
      if (x1 > out[2]) out[2] = x1;
      if (y1 > out[3]) out[3] = y1;
    }
  }
  return out[0] <= out[2] ? out : null;
}

/**
 * The cover a tile's lots need: `first` (read for a margin round the tile, beside the tile's own pages) when it holds
 * every label point the lots meeting the tile may have, else read again for their whole extent (a lot reaching far).
 */
export async function coverFor(
  above: readonly PagedPack[],
  views: readonly Pack[],
  tileBox: BBox,
  first: { box: BBox; cover: TileCover | null },
): Promise<TileCover | null> {
  const extent = lotsExtent(views, tileBox);
  if (extent === null || within(extent, first.box)) return first.cover;
  return readCover(above, extent);
}

/** What the packs above a tile's pack add to its ETag and cache key: their content checksums, in order ("" for none). */
export function coverTag(checksums: readonly number[]): string {
  return checksums.map((c) => c.toString(16)).join(".");
}
