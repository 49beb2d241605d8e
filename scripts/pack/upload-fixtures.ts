// Upload fixtures from the real suburb boundaries (packs/sources): reprojected to MGA zone 56 with proj4, as GeoJSON and zipped Shapefile.
import { readFileSync } from "node:fs";
import { SOURCE_TOPO } from "./cli.ts";
import type { Feature } from "./shapefile-write.ts";
import { isTopology, topologyFeatures } from "./topojson.ts";

export { type Feature, MGA56_DEF, MGA56_PRJ, reproject, shapefileZip } from "./shapefile-write.ts";

/** The first `count` real suburbs of Greater Sydney, WGS84, with name and code. */
export function realSuburbs(count: number, topoPath = SOURCE_TOPO): Feature[] {
  const topo: unknown = JSON.parse(readFileSync(topoPath, "utf8"));
  if (!isTopology(topo)) throw new Error(`${topoPath} is not a TopoJSON topology`);
  return topologyFeatures(topo, "suburbs")
    .slice(0, count)
    .map((f) => ({
      type: "Feature",
      properties: {
        name: String(f.properties.SAL_NAME21 ?? f.properties.name ?? ""),
        sal_code: String(f.properties.id ?? ""),
      },
      geometry: f.geometry,
    }));
}

/** A GeoJSON FeatureCollection; `epsg` adds the legacy crs member QGIS writes for projected data. */
export function geoJsonText(features: Feature[], epsg?: number): string {
  const crs = epsg ? { crs: { type: "name", properties: { name: `urn:ogc:def:crs:EPSG::${epsg}` } } } : {};
  return JSON.stringify({ type: "FeatureCollection", ...crs, features });
}

/** `count` square lots of about 20 m in a grid over western Sydney, each with a lot id: bench and limit fixtures. */
export function gridLots(count: number): Feature[] {
  const side = Math.ceil(Math.sqrt(count));
  const step = 0.0002;
  const out: Feature[] = [];
  for (let i = 0; i < count; i++) {
    const x = 150.8 + (i % side) * step;
    const y = -33.9 + Math.floor(i / side) * step;
    const d = step * 0.9;
    out.push({
      type: "Feature",
      properties: { lot_id: `${i + 1}//DP${900000 + (i % 997)}`, area_m2: 400 },
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [x, y],
            [x + d, y],
            [x + d, y + d],
            [x, y + d],
            [x, y],
          ],
        ],
      },
    });
  }
  return out;
}
