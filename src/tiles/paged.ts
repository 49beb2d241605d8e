// Vector tiles and TileJSON of a v2 lots pack: the pages under the tile, cut as v1 packs and merged into one layer.
import { pagesFor, refuseDamaged } from "../packs/request-pages.ts";
import { type PagedPack, PROP_COLUMNS, type Snapshot, tileKey } from "../packs/paged/index.ts";
import { layerMinZoom } from "./layers.ts";
import { BUFFER, type TileCoord, tileBBox } from "./math.ts";
import { OVERVIEW_MIN_ZOOM, overviewLayer } from "./overview.ts";
import { encodeTile } from "./mvt.ts";
import { pagedLotsTile } from "./paged-lots.ts";
import { BLOCKS_LAYER, blocksLayer } from "./blocks.ts";
import { BLOCK_CELLS_MAX_ZOOM, blockCellsLayer } from "./block-cells.ts";
import { type TiledPack, tileJson } from "./tilejson.ts";
import { TILE_MAX_READS } from "./prebuilt-tiles.ts";

/**
 * The tile, or null when it holds nothing: lots from z14; below, the street blocks of a pack that stores them (from
 * z10), else generalised zoning from the overview's cells.
 */
export async function pagedTile(pack: PagedPack, tile: TileCoord): Promise<Uint8Array | null> {
  if (tile.z < Math.min(layerMinZoom(BLOCKS_LAYER), OVERVIEW_MIN_ZOOM)) return null;
  if (tile.z < layerMinZoom("parcels")) {
    const blocks = (await pack.snapshot()).root.meta.overview?.kind === "blocks";
    if (tile.z < (blocks ? layerMinZoom(BLOCKS_LAYER) : OVERVIEW_MIN_ZOOM)) return null;
    const { pages, blocks: blockPages, zones, refused } = await pack.overviewFor(tileBBox(tile, BUFFER));
    refuseDamaged(refused);
    const drawBlocks = tile.z <= BLOCK_CELLS_MAX_ZOOM ? blockCellsLayer : blocksLayer;
    const layer = blocks ? drawBlocks(blockPages, zones, tile) : overviewLayer(pages, zones, tile);
    return layer.features.length > 0 ? encodeTile([layer]) : null;
  }
  // A tile whose pages lie too far apart to read in 2 requests was stored whole by the builder: one request.
  // A fresh root answers without a promise whether it stores the tile (most packs store none).
  const s = pack.current();
  if (s === null || s.root.storedTiles.has(tileKey(tile.z, tile.x, tile.y))) {
    // A damaged stored tile is a PagedPackError: a 503 naming the pack and the tile.
    const whole = await pack.storedTile(tile.z, tile.x, tile.y);
    if (whole !== undefined) return whole;
  }
  // At most 2 range requests a tile: pages far apart on the Hilbert curve are read with what lies between.
  const pages = await pagesFor([pack], [{ box: tileBBox(tile, BUFFER) }], { maxReads: TILE_MAX_READS });
  return pagedLotsTile(pages, tile);
}

/** A v2 pack as TileJSON describes it, from its root alone. */
export function pagedTileJson(s: Snapshot, origin: string) {
  const { meta } = s.root;
  const synthetic = meta.info.synthetic !== undefined && meta.info.synthetic !== "false";
  const blocks = meta.overview?.kind === "blocks";
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
        synthetic,
        fields: PROP_COLUMNS.filter((c) => meta.columns.some((m) => m.name === c)),
      },
      // Generalised from the lots' zones (overview pages), drawn below the lots' zoom: street blocks where stored.
      ...(meta.overview
        ? [
            {
              name: blocks ? BLOCKS_LAYER : "zoning",
              kind: "polygon" as const,
              count: 0,
              synthetic: blocks && synthetic,
              fields: ["zone"],
            },
          ]
        : []),
    ],
  };
  return tileJson(shell, origin);
}
