// GTFS stops.txt -> station points for a pack's transport layer (location_type 1 is a station, 0 a platform).
import { csvParse } from "d3-dsv";
import type { InputFeature } from "./layers.ts";

export type Station = { stopId: string; name: string; lon: number; lat: number };

/** Whether a file's text looks like GTFS stops.txt rather than GeoJSON. */
export function isGtfsStops(text: string): boolean {
  const header = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return /(^|,)"?stop_id"?(,|$)/.test(header) && /(^|,)"?stop_lat"?(,|$)/.test(header);
}

/** The stations of a stops.txt: rows with location_type 1 and usable coordinates, in file order. */
export function gtfsStations(text: string): Station[] {
  const rows = csvParse(text.replace(/^\uFEFF/, ""));
  const out: Station[] = [];
  for (const r of rows) {
    if ((r.location_type ?? "").trim() !== "1") continue;
    const lat = Number(r.stop_lat);
    const lon = Number(r.stop_lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || r.stop_lat?.trim() === "" || r.stop_lon?.trim() === "")
      continue;
    out.push({ stopId: (r.stop_id ?? "").trim(), name: (r.stop_name ?? "").trim(), lon, lat });
  }
  return out;
}

/** Stations as point features for the transport layer (GTFS has no mode per stop: the feed's is given). */
export function stationFeatures(stations: readonly Station[], mode: string): InputFeature[] {
  return stations.map((s) => ({
    properties: { stop_name: s.name, stop_id: s.stopId, mode, synthetic: false },
    geometry: { type: "Point", coordinates: [s.lon, s.lat] },
  }));
}
