// A lots pack written without some of LOT_COLUMNS: what a pack built before those columns holds.
import { lotRecordFrom } from "../../src/assess/lot-record.ts";
import type { AreaGeometry } from "../../src/geo/types.ts";
import { encodePack, type PackOptions } from "../../src/packs/paged/encode.ts";
import { LOT_COLUMNS, LOT_ID_COLUMN, LOT_SUMMARY, lotValues } from "../../src/packs/paged/lot-columns.ts";
import type { ParcelHit } from "../../src/packs/spatial.ts";
import type { Pack } from "../../src/packs/types.ts";

/** `parcels` with their facts from `context`, every column `dropped` names left out; `opts` over a lots pack's. */
export function lotsPackWithout(
  parcels: readonly ParcelHit[],
  context: readonly Pack[],
  dropped: (name: string) => boolean,
  opts: { id: string } & Partial<PackOptions>,
): Promise<Uint8Array> {
  const keep = LOT_COLUMNS.map((c, i) => [c, i] as const).filter(([c]) => !dropped(c.name));
  const features = parcels.map((p) => {
    const values = lotValues(lotRecordFrom(context, p));
    return { geometry: p.polygon as AreaGeometry, values: keep.map(([, i]) => values[i] ?? null) };
  });
  return encodePack(features, {
    version: "1",
    columns: keep.map(([c]) => c),
    lotIdColumn: LOT_ID_COLUMN,
    summary: LOT_SUMMARY,
    ...opts,
  });
}
