// Finds the parcel a CSV row points at, or says plainly why it cannot.
import type { BBox } from "../geo/bbox.ts";
import { bboxContains } from "../geo/bbox.ts";
import { type PackArea, pointArea } from "../packs/area.ts";
import type { Pack } from "../packs/types.ts";
import { parcelAt, parcelByLot, type ParcelHit } from "../packs/spatial.ts";
import type { CsvSiteRow } from "./csv.ts";

export type Located = { ok: true; parcel: ParcelHit } | { ok: false; detail: string };

const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6);

/** The pack pages a row needs read, or null for a row that cannot be located. */
export function rowArea(row: CsvSiteRow): PackArea | null {
  if (row.problem) return null;
  if (row.lotNumber !== undefined) return { lotId: row.lotNumber };
  return typeof row.lat === "number" && typeof row.lon === "number" ? pointArea(row.lon, row.lat) : null;
}

export type Coverage = readonly { title: string; bbox: BBox; parcels: boolean }[];

export function locateRow(packs: readonly Pack[], row: CsvSiteRow, coverage: Coverage): Located {
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
  if (!coverage.some((c) => bboxContains(c.bbox, lon, lat))) {
    const covered = [...new Set(coverage.filter((c) => c.parcels).map((c) => c.title))].join("; ");
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
