// Found sites as CSV: the export a person opens in a spreadsheet, and the file batch scoring reads (pure: unit-tested).
import { MAX_BATCH_ROWS } from "../../../../src/credits/prices.ts";
import { csvCell } from "../../csv.ts";
import { EXCLUSIONS, type FoundSite } from "./types.ts";

/** How a site is named to a person: its address, else its lot id, else where it is. */
export function siteName(s: FoundSite): string {
  return s.address ?? s.lot_id ?? `Lot at ${s.center[1].toFixed(6)}, ${s.center[0].toFixed(6)}`;
}

const line = (cells: unknown[]) => cells.map(csvCell).join(",");

export function foundCsv(sites: readonly FoundSite[]): string {
  const head = [
    "lot_id",
    "address",
    "suburb",
    "lga",
    "zone",
    "area_m2",
    "fsr",
    "height_m",
    "min_lot_m2",
    ...EXCLUSIONS.map((e) => `${e}_share`),
    "station",
    "station_distance_m",
    "longitude",
    "latitude",
    "pack_id",
  ];
  const rows = sites.map((s) => [
    s.lot_id,
    s.address,
    s.suburb,
    s.lga,
    s.zone,
    s.area_m2,
    s.fsr,
    s.height_m,
    s.min_lot_m2,
    ...EXCLUSIONS.map((e) => s.overlays[e]),
    s.station?.name,
    s.station ? Math.round(s.station.distance_m) : null,
    s.center[0],
    s.center[1],
    s.pack_id,
  ]);
  return [head, ...rows].map(line).join("\n");
}

/**
 * The first sites (at most a batch upload's rows) as a batch upload: by lot number when every site has one, else by the
 * point inside each lot that the search returned (a batch file has one kind of location for all its rows).
 */
export function batchCsv(sites: readonly FoundSite[]): string {
  const first = sites.slice(0, MAX_BATCH_ROWS);
  if (first.every((s) => s.lot_id !== null))
    return [line(["site_name", "lot_number"]), ...first.map((s) => line([siteName(s), s.lot_id]))].join("\n");
  return [
    line(["site_name", "latitude", "longitude"]),
    ...first.map((s) => line([siteName(s), s.center[1].toFixed(7), s.center[0].toFixed(7)])),
  ].join("\n");
}
