// The real data the synthetic world is built around: the ABS suburbs with their parks and water, the 2018
// train stations and the Sydney Metro stations added since.
import { readFileSync } from "node:fs";
import { csvParse } from "d3-dsv";
import type { AreaGeometry } from "../../src/geo/types.ts";
import { gtfsStations } from "../pack/gtfs.ts";
import { isTopology, topologyFeatures } from "../pack/topojson.ts";
import { railCorridors } from "./rail.ts";

export const WORLD_TOPO = "packs/sources/sydney-suburbs/sydney-suburbs.topo.json";
export const WORLD_GTFS = "packs/sources/sydney-trains-gtfs/stops.txt";
export const WORLD_METRO = "packs/sources/sydney-metro/stations.csv";

export type Suburb = {
  // Position in the topology: the suburb's number in lot ids and draws.
  index: number;
  name: string;
  lga: string;
  salCode: string;
  label: [number, number];
  geometry: AreaGeometry;
  bbox: [number, number, number, number];
};

export type Station = { name: string; mode: "train" | "metro"; stopId: string; lon: number; lat: number };

export type WorldInputs = {
  suburbs: Suburb[];
  parks: AreaGeometry[];
  water: AreaGeometry[];
  // The surface rail, metro and light rail corridors (rail.ts): land no lot may take.
  rail: AreaGeometry[];
  stations: Station[];
};

function bboxOf(g: AreaGeometry): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  for (const rings of polys) {
    for (const p of rings[0] ?? []) {
      b[0] = Math.min(b[0], p[0] as number);
      b[1] = Math.min(b[1], p[1] as number);
      b[2] = Math.max(b[2], p[0] as number);
      b[3] = Math.max(b[3], p[1] as number);
    }
  }
  return b;
}

// Each polygon of a MultiPolygon on its own: the indexes then bound each park or water body tightly.
function parts(g: AreaGeometry): AreaGeometry[] {
  return g.type === "Polygon" ? [g] : g.coordinates.map((rings) => ({ type: "Polygon", coordinates: rings }));
}

/** Stations of the 2018 feed with the Metro file applied: new stations added, converted ones made metro. */
export function mergeMetro(train: ReturnType<typeof gtfsStations>, metroCsv: string): Station[] {
  const out: Station[] = train.map((s) => ({ name: s.name, mode: "train", stopId: s.stopId, lon: s.lon, lat: s.lat }));
  for (const r of csvParse(metroCsv)) {
    const kind = r.kind ?? "";
    const name = r.name ?? "";
    if (kind === "new") {
      const lon = Number(r.lon);
      const lat = Number(r.lat);
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new Error(`metro station ${name} has no coordinates`);
      out.push({ name, mode: "metro", stopId: `metro:${name.replace(/ Station$/, "").toLowerCase()}`, lon, lat });
      continue;
    }
    const s = out.find((x) => x.stopId === r.gtfs_stop_id);
    if (!s) throw new Error(`metro station ${name}: stop ${r.gtfs_stop_id} is not in the train feed`);
    if (kind === "converted") s.mode = "metro";
    else if (kind !== "interchange") throw new Error(`metro station ${name}: unknown kind ${kind}`);
  }
  return out;
}

export function loadInputs(root = "."): WorldInputs {
  const topo: unknown = JSON.parse(readFileSync(`${root}/${WORLD_TOPO}`, "utf8"));
  if (!isTopology(topo)) throw new Error(`${WORLD_TOPO} is not a TopoJSON topology`);
  const suburbs = topologyFeatures(topo, "suburbs").map((f, index) => ({
    index,
    name: String(f.properties.name),
    lga: String(f.properties.lga),
    salCode: String(f.properties.id),
    label: [Number(f.properties.lx), Number(f.properties.ly)] as [number, number],
    geometry: f.geometry,
    bbox: bboxOf(f.geometry),
  }));
  const landuse = topologyFeatures(topo, "landuse");
  const kind = (k: string) => landuse.filter((f) => f.properties.kind === k).flatMap((f) => parts(f.geometry));
  const stations = mergeMetro(
    gtfsStations(readFileSync(`${root}/${WORLD_GTFS}`, "utf8")),
    readFileSync(`${root}/${WORLD_METRO}`, "utf8"),
  );
  return { suburbs, parks: kind("parkland"), water: kind("water"), rail: railCorridors(root), stations };
}

/** The stations within `marginDeg` of the box, in feed order. */
export function stationsNear(stations: readonly Station[], box: readonly number[], marginDeg: number): Station[] {
  return stations.filter(
    (s) =>
      s.lon >= (box[0] as number) - marginDeg &&
      s.lon <= (box[2] as number) + marginDeg &&
      s.lat >= (box[1] as number) - marginDeg &&
      s.lat <= (box[3] as number) + marginDeg,
  );
}
