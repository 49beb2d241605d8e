// Builds the offline basemap's land, water, parks and suburb label points (web/src/map/basemap/sydney.geojson) from
// the suburbs source's TopoJSON. Run: node_modules/.bin/node web/basemap/land.ts
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isTopology, topologyFeatures } from "../../scripts/pack/topojson.ts";

const SOURCE = "packs/sources/sydney-suburbs/sydney-suburbs.topo.json";
const OUT = "web/src/map/basemap/sydney.geojson";

const topo: unknown = JSON.parse(readFileSync(SOURCE, "utf8"));
if (!isTopology(topo)) throw new Error(`${SOURCE} is not a TopoJSON topology`);

// Five decimals is about a metre: finer than the source's 150 m simplification.
const round = (v: unknown): unknown =>
  typeof v === "number" ? Math.round(v * 1e5) / 1e5 : Array.isArray(v) ? v.map(round) : v;
const area = (kind: string, g: { type: string; coordinates: unknown }) => ({
  type: "Feature",
  properties: { kind },
  geometry: { type: g.type, coordinates: round(g.coordinates) },
});

const features = [
  ...topologyFeatures(topo, "surrounds").map((f) => area("land", f.geometry)),
  ...topologyFeatures(topo, "landuse").map((f) => area(f.properties.kind === "water" ? "water" : "park", f.geometry)),
  ...topologyFeatures(topo, "suburbs").map((f) => ({
    type: "Feature",
    properties: { kind: "suburb", name: String(f.properties.name) },
    geometry: { type: "Point", coordinates: round([Number(f.properties.lx), Number(f.properties.ly)]) },
  })),
];
mkdirSync("web/src/map/basemap", { recursive: true });
writeFileSync(OUT, JSON.stringify({ type: "FeatureCollection", features }));
