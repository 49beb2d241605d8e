// Upload fixtures from the real suburb boundaries (../shared/data): reprojected to MGA zone 56 with proj4, as GeoJSON and zipped Shapefile.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { zipSync } from "fflate";
import proj4 from "proj4";
import { SHARED_TOPO } from "../../scripts/pack/cli.ts";
import { isTopology, topologyFeatures } from "../../scripts/pack/topojson.ts";
import type { AreaGeometry } from "../../src/geo/types.ts";

type Ring = number[][];
type ShpWrite = (
  rows: Record<string, unknown>[],
  type: "POLYGON" | "POINT",
  geometries: unknown[],
  done: (err: unknown, files: { shp: DataView; shx: DataView; dbf: DataView }) => void,
) => void;
const shpWrite = createRequire(import.meta.url)("@mapbox/shp-write/src/write.js") as ShpWrite;

export const MGA56_DEF = "+proj=utm +zone=56 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs";
// The .prj ArcGIS and QGIS write for GDA2020 / MGA zone 56 (EPSG:7856).
export const MGA56_PRJ =
  'PROJCS["GDA2020_MGA_Zone_56",GEOGCS["GCS_GDA2020",DATUM["D_GDA2020",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",153.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

export interface Feature {
  type: "Feature";
  properties: Record<string, unknown>;
  geometry: AreaGeometry | { type: "Point"; coordinates: number[] };
}

/** The first `count` real suburbs of Greater Sydney, WGS84, with name and code. */
export function realSuburbs(count: number, topoPath = SHARED_TOPO): Feature[] {
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

const mapRings = (g: AreaGeometry, fn: (ring: Ring, hole: boolean) => Ring): AreaGeometry =>
  g.type === "Polygon"
    ? { type: "Polygon", coordinates: g.coordinates.map((r, i) => fn(r as Ring, i > 0)) }
    : { type: "MultiPolygon", coordinates: g.coordinates.map((p) => p.map((r, i) => fn(r as Ring, i > 0))) };

/** The features reprojected from WGS84 into `def` (MGA zone 56 by default). */
export function reproject(features: Feature[], def = MGA56_DEF): Feature[] {
  const to = proj4("WGS84", def);
  return features.map((f) => ({
    ...f,
    geometry:
      f.geometry.type === "Point"
        ? { type: "Point", coordinates: to.forward(f.geometry.coordinates.slice(0, 2)) }
        : mapRings(f.geometry, (ring) => ring.map((p) => to.forward([p[0] as number, p[1] as number]))),
  }));
}

/** A GeoJSON FeatureCollection; `epsg` adds the legacy crs member QGIS writes for projected data. */
export function geoJsonText(features: Feature[], epsg?: number): string {
  const crs = epsg ? { crs: { type: "name", properties: { name: `urn:ogc:def:crs:EPSG::${epsg}` } } } : {};
  return JSON.stringify({ type: "FeatureCollection", ...crs, features });
}

const signedArea = (ring: Ring) => {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a +=
      ((ring[j] as number[])[0] as number) * ((ring[i] as number[])[1] as number) -
      ((ring[i] as number[])[0] as number) * ((ring[j] as number[])[1] as number);
  return a / 2;
};

const bytesOf = (v: DataView) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** A zipped Shapefile (.shp, .shx, .dbf and, unless null, .prj); outer rings clockwise as the format wants. */
export function shapefileZip(features: Feature[], prj: string | null, base = "lots"): Uint8Array {
  const points = features.every((f) => f.geometry.type === "Point");
  const geometries = features.map((f) =>
    f.geometry.type === "Point"
      ? f.geometry.coordinates
      : mapRings(f.geometry, (ring, hole) => (signedArea(ring) > 0 !== hole ? [...ring].reverse() : ring)).coordinates,
  );
  let files: { shp: DataView; shx: DataView; dbf: DataView } | undefined;
  shpWrite(
    features.map((f) => f.properties),
    points ? "POINT" : "POLYGON",
    geometries,
    (err, out) => {
      if (err) throw err;
      files = out;
    },
  );
  if (!files) throw new Error("shp-write did not write");
  const entries: Record<string, Uint8Array> = {
    [`${base}.shp`]: bytesOf(files.shp),
    [`${base}.shx`]: bytesOf(files.shx),
    [`${base}.dbf`]: bytesOf(files.dbf),
  };
  if (prj !== null) entries[`${base}.prj`] = new TextEncoder().encode(prj);
  return zipSync(entries);
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
