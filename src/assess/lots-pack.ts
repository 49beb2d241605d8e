// v1 to v2: a v1 pack's lots with every fact computed by the overlay kernels over the given packs, as a lots pack.
import type { AreaGeometry } from "../geo/types.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import {
  encodePack,
  type FeatureInput,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  lotValues,
  NEIGHBOURS_COLUMN,
  neighbourValues,
} from "../packs/paged/index.ts";
import { withStoredTiles } from "../tiles/prebuilt-tiles.ts";
import { lotRecordFrom } from "./lot-record.ts";

export type ConvertOptions = {
  // Packs whose overlay layers give the facts (the pack itself first); default: the pack alone.
  context?: readonly Pack[];
  asAt?: Record<string, string>;
  pageBytes?: number;
  // Each lot's neighbours precomputed (issue 55), as an upload's and the world's are; off, the streamed build's bytes.
  neighbours?: boolean;
};

function* lotFeatures(pack: Pack, context: readonly Pack[]): Generator<FeatureInput> {
  const layer = pack.layers.get(PARCELS);
  if (layer?.kind !== "polygon") return;
  for (let i = 0; i < layer.count; i++) {
    const parcel = parcelFromFeature(pack, i);
    yield { geometry: parcel.polygon as AreaGeometry, values: lotValues(lotRecordFrom(context, parcel)) };
  }
}

/** The v1 pack's parcels as a v2 lots pack (same id and version), facts precomputed. */
export async function convertToLotsPack(pack: Pack, opts: ConvertOptions = {}): Promise<Uint8Array> {
  const context = opts.context ?? [pack];
  const bytes = await encodePack(lotFeatures(pack, context), {
    id: pack.id,
    version: pack.version,
    columns: opts.neighbours ? [...LOT_COLUMNS, NEIGHBOURS_COLUMN] : LOT_COLUMNS,
    ...(opts.neighbours ? { neighbours: neighbourValues } : {}),
    lotIdColumn: LOT_ID_COLUMN,
    summary: LOT_SUMMARY,
    asAt: opts.asAt ?? {},
    info: {
      title: pack.meta.title,
      attribution: pack.meta.attribution,
      licence: pack.meta.licence,
      ...(pack.meta.note ? { note: pack.meta.note } : {}),
      converted_from: `v${pack.formatVersion}`,
      synthetic: String(pack.layers.get(PARCELS)?.synthetic === true),
    },
    ...(opts.pageBytes ? { pageBytes: opts.pageBytes } : {}),
  });
  return withStoredTiles(bytes, pack.id);
}
