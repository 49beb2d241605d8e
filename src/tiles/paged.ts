// Vector tiles and TileJSON of a v2 lots pack: the pages under the tile, cut as v1 packs and merged into one layer.
import { pagesFor } from "../packs/area.ts";
import { PROP_COLUMNS } from "../packs/paged/page-pack.ts";
import type { PagedPack, Snapshot } from "../packs/paged/reader.ts";
import { tileLayers } from "./cut.ts";
import { layerMinZoom } from "./layers.ts";
import { BUFFER, type TileCoord, tileBBox } from "./math.ts";
import { mergeLayers } from "./merge.ts";
import { encodeTile } from "./mvt.ts";
import { type TiledPack, tileJson } from "./tilejson.ts";

/** The tile, or null when it holds no lot (below the lots' zoom, nothing is read). */
export async function pagedTile(pack: PagedPack, tile: TileCoord): Promise<Uint8Array | null> {
  if (tile.z < layerMinZoom("parcels")) return null;
  const pages = await pagesFor([pack], [{ box: tileBBox(tile, BUFFER) }]);
  const layers = mergeLayers(pages.map((p) => tileLayers(p, tile)));
  return layers.length > 0 ? encodeTile(layers) : null;
}

/** A v2 pack as TileJSON describes it, from its root alone. */
export function pagedTileJson(s: Snapshot, origin: string) {
  const { meta } = s.root;
  const shell: TiledPack = {
    id: meta.id,
    version: meta.version,
    meta: { title: meta.info.title ?? meta.id, attribution: meta.info.attribution ?? "" },
    bbox: meta.bbox,
    layers: [
      {
        name: "parcels",
        kind: "polygon" as const,
        count: s.header.featureCount,
        synthetic: meta.info.synthetic === "true",
        fields: PROP_COLUMNS.filter((c) => meta.columns.some((m) => m.name === c)),
      },
    ],
  };
  return tileJson(shell, origin);
}
