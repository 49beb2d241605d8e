// Vector tiles and TileJSON of a v2 lots pack: the pages under the tile, cut as v1 packs and merged into one layer.
import { pagesFor, refuseDamaged } from "../packs/request-pages.ts";
import { type PagedPack, PROP_COLUMNS, type Snapshot, tileKey } from "../packs/paged/index.ts";
import { layerMinZoom } from "./layers.ts";
import type { BBox } from "../geo/bbox.ts";
import { BUFFER, type TileCoord, tileBBox } from "./math.ts";
import { OVERVIEW_MIN_ZOOM, overviewLayer } from "./overview.ts";
import { encodeTile } from "./mvt.ts";
import { pagedLotsTile } from "./paged-lots.ts";
import { BLOCKS_LAYER, blocksLayer } from "./blocks.ts";
import { BLOCK_CELLS_MAX_ZOOM, blockCellsLayer } from "./block-cells.ts";
import { type TiledPack, tileJson } from "./tilejson.ts";
import { TILE_MAX_READS } from "./prebuilt-tiles.ts";
import { coverFor, packsWithPagesIn, readCover } from "./cover.ts";
import { overviewCover } from "./overview-cover.ts";

// Round a tile, the higher packs' lots are read this far past each edge (tile units): most lots meeting the tile have
// their label point within it, so their cover comes in the same round of reads as the tile's own pages.
const COVER_MARGIN = 1024;

/**
 * The tile, or null when it holds nothing: lots from z14; below, the street blocks of a pack that stores them (from
 * z10), else generalised zoning from the overview's cells. `above`: public packs that outrank this one (precedence.ts),
 * whose lots hide this pack's lots under them (label point inside), and whose overview hides this pack's below z14.
 */
export async function pagedTile(
  pack: PagedPack,
  tile: TileCoord,
  above: readonly PagedPack[] = [],
): Promise<Uint8Array | null> {
  if (tile.z < Math.min(layerMinZoom(BLOCKS_LAYER), OVERVIEW_MIN_ZOOM)) return null;
  if (tile.z < layerMinZoom("parcels")) {
    const blocks = (await pack.snapshot()).root.meta.overview?.kind === "blocks";
    if (tile.z < (blocks ? layerMinZoom(BLOCKS_LAYER) : OVERVIEW_MIN_ZOOM)) return null;
    // The higher packs' overview is read beside this one's: where it draws, this pack's is left out.
    const [{ pages, blocks: blockPages, zones, refused }, hidden] = await Promise.all([
      pack.overviewFor(tileBBox(tile, BUFFER)),
      overviewCover(above, tile),
    ]);
    refuseDamaged(refused);
    const drawBlocks = tile.z <= BLOCK_CELLS_MAX_ZOOM ? blockCellsLayer : blocksLayer;
    const layer = blocks ? drawBlocks(blockPages, zones, tile, hidden) : overviewLayer(pages, zones, tile, hidden);
    return layer.features.length > 0 ? encodeTile([layer]) : null;
  }
  const box = tileBBox(tile, BUFFER);
  // Higher packs with lots where the label points of this tile's lots may lie (within its pages' boxes, from the
  // roots; none: drawn as alone). Their lots round the tile are read beside its own pages, further ones when a lot
  // reaches further; a stored tile was cut with nothing above it, so it is not served here.
  const under = above.length > 0 ? await packsWithPagesIn(above, pagesReach(pack, await pack.snapshot(), box)) : [];
  if (under.length > 0) {
    const near = tileBBox(tile, COVER_MARGIN);
    const [first, pages] = await Promise.all([
      readCover(under, near),
      pagesFor([pack], [{ box }], { maxReads: TILE_MAX_READS }),
    ]);
    return pagedLotsTile(pages, tile, await coverFor(under, pages, box, { box: near, cover: first }));
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
  const pages = await pagesFor([pack], [{ box }], { maxReads: TILE_MAX_READS });
  return pagedLotsTile(pages, tile);
}

/** The union of the boxes of `pack`'s pages meeting `box` (every lot meeting it lies inside), or null when none does. */
function pagesReach(pack: PagedPack, s: Snapshot, box: BBox): BBox | null {
  const boxes = s.root.pageBoxes;
  const out: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const no of pack.pagesInBox(s, box)) {
    out[0] = Math.min(out[0], boxes[4 * no] as number);
    out[1] = Math.min(out[1], boxes[4 * no + 1] as number);
    out[2] = Math.max(out[2], boxes[4 * no + 2] as number);
    out[3] = Math.max(out[3], boxes[4 * no + 3] as number);
  }
  return out[0] <= out[2] ? out : null;
}

/** A v2 pack as TileJSON describes it, from its root alone (`aboveTag`: the packs above it, src/tiles/above.ts). */
export function pagedTileJson(s: Snapshot, origin: string, aboveTag = "") {
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
  return tileJson(shell, origin, aboveTag);
}
