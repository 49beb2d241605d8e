// Finds the parcel a CSV row points at, or says plainly why it cannot.
import type { Pack } from "../packs/types.ts";
import { packContaining, parcelAt, parcelByLot, type ParcelHit } from "../packs/spatial.ts";
import type { CsvSiteRow } from "./csv.ts";

export type Located = { ok: true; parcel: ParcelHit } | { ok: false; detail: string };

const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6);

export function locateRow(packs: readonly Pack[], row: CsvSiteRow): Located {
  if (row.problem) return { ok: false, detail: row.problem };
  if (row.lotNumber !== undefined) {
    const hit = parcelByLot(packs, row.lotNumber);
    return hit
      ? { ok: true, parcel: hit }
      : { ok: false, detail: `Lot "${row.lotNumber}" matches no parcel in the data packs.` };
  }
  const lat = row.lat;
  const lon = row.lon;
  if (typeof lat !== "number" || typeof lon !== "number")
    return { ok: false, detail: "The row has no usable coordinates." };
  const where = `(${fmt(lat)}, ${fmt(lon)})`;
  if (!packContaining(packs, lon, lat)) {
    const covered = [...new Set(packs.filter((p) => p.layers.has("parcels")).map((p) => p.meta.title))].join("; ");
    return {
      ok: false,
      detail: `The point ${where} is outside every data pack with parcels${covered ? ` (covered: ${covered})` : ""}.`,
    };
  }
  const hit = parcelAt(packs, lon, lat);
  return hit
    ? { ok: true, parcel: hit }
    : {
        ok: false,
        detail: `No parcel at ${where}: the point may fall on a road, park or water, or outside the cadastre.`,
      };
}
