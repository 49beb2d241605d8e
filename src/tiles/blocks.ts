// The street blocks of a v2 lots pack's block overview as one MVT layer `blocks` (attribute `zone`): each block a quad,
// drawn below the lots' zoom so the streets show as the gaps between blocks.
import type { BlockPage } from "../packs/paged/index.ts";
import { blockCells, type CellMask } from "./block-walk.ts";
import { polygonGeometry } from "./cut.ts";
import { tileFrame, type TileCoord } from "./math.ts";
import { emptyDictionary, grow } from "./merge.ts";
import { GEOM_POLYGON, type TileFeature, type TileLayer } from "./mvt.ts";

export const BLOCKS_LAYER = "blocks";

/** The blocks of the pages that reach into the tile, each in its zone (one of `zones`), but any reaching a `hidden` cell. */
export function blocksLayer(
  pages: readonly BlockPage[],
  zones: readonly string[],
  tile: TileCoord,
  hidden: CellMask | null = null,
): TileLayer {
  // A block partly under a higher pack's land is left out whole: a gap at its edge rather than two cadastres at once.
  const under = new Set<number>();
  if (hidden) blockCells(pages, tile, (c, _a, _z, b) => hidden[c] && under.add(b));
  const frame = tileFrame(tile);
  const dict = emptyDictionary();
  dict.keys.push("zone");
  const valueIndex = new Map<number, number>();
  const features: TileFeature[] = [];
  let block = -1;
  for (const page of pages) {
    for (let i = 0; i < page.count; i++) {
      block++;
      if (under.has(block)) continue;
      // Blocks are tens of metres at the least: a unit's tolerance simplifies nothing a person would see.
      const geometry = polygonGeometry(page.geometry, i, frame, 1);
      if (geometry === null) continue;
      const code = page.zones[i] as number;
      let vi = valueIndex.get(code);
      if (vi === undefined) {
        vi = dict.values.push(zones[code] ?? "") - 1;
        valueIndex.set(code, vi);
      }
      features.push({ id: features.length, type: GEOM_POLYGON, geometry, tags: Uint32Array.of(0, vi) });
    }
  }
  dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
  dict.valueRemap = grow(dict.valueRemap, dict.values.length);
  return { name: BLOCKS_LAYER, features, dictionary: dict };
}
