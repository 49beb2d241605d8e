// The transport pack: real stations (trains, metro, light rail) and the lines joining them, from packs/sources/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { csvParse } from "d3-dsv";
import { type ColumnarLayer, encodeColumnar } from "../../src/packs/paged/index.ts";
import { gtfsStations } from "./gtfs.ts";

export const TRANSPORT_ID = "sydney-transport";
export const TRANSPORT_VERSION = "2026.1";

export type Mode = "Trains" | "Metro" | "Light rail";
export type TransportSources = {
  trainStops: string; // sydney-trains-gtfs/stops.txt
  metroStations: string; // sydney-metro/stations.csv
  lightRailStops: string; // sydney-light-rail/stops.csv
  lines: string; // sydney-rail-lines/lines.csv
  routes: string; // sydney-rail-lines/routes.txt (GTFS)
  lightRailRoutes: string; // sydney-rail-lines/light-rail-routes.csv
};
export type Station = { name: string; mode: Mode; lines: string[]; lon: number; lat: number };
export type Line = { line: string; name: string; colour: string; mode: Mode; parts: [number, number][][] };

export function readTransportSources(dir = "packs/sources"): TransportSources {
  const read = (p: string) => readFileSync(join(dir, p), "utf8");
  return {
    trainStops: read("sydney-trains-gtfs/stops.txt"),
    metroStations: read("sydney-metro/stations.csv"),
    lightRailStops: read("sydney-light-rail/stops.csv"),
    lines: read("sydney-rail-lines/lines.csv"),
    routes: read("sydney-rail-lines/routes.txt"),
    lightRailRoutes: read("sydney-rail-lines/light-rail-routes.csv"),
  };
}

const modeOf = (line: string): Mode =>
  line.startsWith("T") ? "Trains" : line.startsWith("M") ? "Metro" : "Light rail";
const shortName = (name: string) => name.replace(/ (Station|Light Rail)$/, "");
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

// Every point a line may name: "Chatswood" (a train or metro station) or "Glebe Light Rail", to its lon/lat.
function stationPoints(src: TransportSources): Map<string, [number, number]> {
  const gtfs = gtfsStations(src.trainStops);
  const byId = new Map(gtfs.map((s) => [s.stopId, [s.lon, s.lat] as [number, number]]));
  const points = new Map<string, [number, number]>();
  for (const s of gtfs) points.set(shortName(s.name), [s.lon, s.lat]);
  const place = (name: string, kind: string, id: string, lon: string, lat: string) => {
    const at = kind === "new" ? ([Number(lon), Number(lat)] as [number, number]) : byId.get(id);
    if (!at || !Number.isFinite(at[0]) || !Number.isFinite(at[1])) throw new Error(`no point for station ${name}`);
    points.set(name, at);
  };
  for (const r of csvParse(src.metroStations))
    place(shortName(r.name ?? ""), r.kind ?? "", r.gtfs_stop_id ?? "", r.lon ?? "", r.lat ?? "");
  for (const r of csvParse(src.lightRailStops))
    place(r.name ?? "", r.kind ?? "", r.gtfs_stop_id ?? "", r.lon ?? "", r.lat ?? "");
  return points;
}

// route_short_name -> [long name, #colour] from the GTFS routes.txt and the light rail table.
function routeTable(src: TransportSources): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const r of [...csvParse(src.routes), ...csvParse(src.lightRailRoutes)]) {
    const short = r.route_short_name ?? "";
    if (!out.has(short)) out.set(short, [r.route_long_name ?? short, `#${(r.route_color ?? "").toUpperCase()}`]);
  }
  return out;
}

/** Stations a line stops at (a `~` name is passed, not served) and each line's parts through them, in file order. */
export function transportNetwork(src: TransportSources): { stations: Station[]; lines: Line[] } {
  const points = stationPoints(src);
  const routes = routeTable(src);
  const served = new Map<string, Set<string>>();
  const lines = new Map<string, Line>();
  for (const r of csvParse(src.lines)) {
    const line = r.line ?? "";
    const route = routes.get(line);
    if (!route) throw new Error(`line ${line}: not in routes.txt or light-rail-routes.csv`);
    const part: [number, number][] = [];
    for (const raw of (r.stations ?? "").split("|")) {
      const name = raw.replace(/^~/, "");
      const at = points.get(name);
      if (!at) throw new Error(`line ${line} (${r.branch}): no station named ${name}`);
      part.push([round6(at[0]), round6(at[1])]);
      if (raw.startsWith("~")) continue;
      const set = served.get(name) ?? new Set<string>();
      set.add(line);
      served.set(name, set);
    }
    const have = lines.get(line) ?? { line, name: route[0], colour: route[1], mode: modeOf(line), parts: [] };
    have.parts.push(part);
    lines.set(line, have);
  }
  const stations: Station[] = [];
  for (const [name, set] of served) {
    const list = [...set];
    const at = points.get(name) as [number, number];
    // A station is as its heaviest mode: Chatswood is a train station that the metro also serves.
    const mode = list.some((l) => l.startsWith("T")) ? "Trains" : modeOf(list[0] as string);
    stations.push({ name: shortName(name), mode, lines: list, lon: round6(at[0]), lat: round6(at[1]) });
  }
  return { stations, lines: [...lines.values()] };
}

const NONE = new Uint32Array(0);

function stationsLayer(stations: Station[]): ColumnarLayer {
  const coords = Float64Array.from(stations.flatMap((s) => [s.lon, s.lat]));
  return {
    name: "stations",
    kind: "point",
    count: stations.length,
    coords,
    ringOffsets: NONE,
    polyOffsets: NONE,
    featureOffsets: NONE,
    fields: ["name", "mode", "lines"],
    categoryField: "mode",
    synthetic: false,
    syntheticField: null,
    row: (i) => {
      const s = stations[i] as Station;
      return [s.name, s.mode, s.lines.join(" ")];
    },
  };
}

// A line layer's columns: each feature one polygon whose rings are the line's parts (columnar-layers.ts).
function linesLayer(lines: Line[]): ColumnarLayer {
  const xy: number[] = [];
  const ringOffsets = [0];
  const polyOffsets = [0];
  const featureOffsets = [0];
  for (const l of lines) {
    for (const part of l.parts) {
      for (const [x, y] of part) xy.push(x, y);
      ringOffsets.push(xy.length / 2);
      polyOffsets.push(ringOffsets.length - 1);
    }
    featureOffsets.push(polyOffsets.length - 1);
  }
  return {
    name: "lines",
    kind: "line",
    count: lines.length,
    coords: Float64Array.from(xy),
    ringOffsets: Uint32Array.from(ringOffsets),
    polyOffsets: Uint32Array.from(polyOffsets),
    featureOffsets: Uint32Array.from(featureOffsets),
    fields: ["line", "name", "colour", "mode"],
    categoryField: "line",
    synthetic: false,
    syntheticField: null,
    row: (i) => {
      const l = lines[i] as Line;
      return [l.line, l.name, l.colour, l.mode];
    },
  };
}

export const TRANSPORT_META = {
  title: "Sydney stations and lines (trains, metro, light rail)",
  licence: "CC BY 4.0",
  attribution:
    "Contains data from Transport for NSW (GTFS, CC BY 4.0); Metro and light rail stop points approximate, " +
    "line paths join consecutive stations (packs/sources/sydney-rail-lines/README.md)",
} as const;

/** The committed transport pack: a v2 pack of `stations` and `lines`. */
export async function buildTransportPack(
  src: TransportSources,
): Promise<{ bytes: Uint8Array; stations: number; lines: number }> {
  const { stations, lines } = transportNetwork(src);
  const bytes = await encodeColumnar([stationsLayer(stations), linesLayer(lines)], {
    id: TRANSPORT_ID,
    version: TRANSPORT_VERSION,
    meta: TRANSPORT_META,
  });
  return { bytes, stations: stations.length, lines: lines.length };
}
