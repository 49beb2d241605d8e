// Writes zipped Shapefiles (.shp polygons, .dbf text fields, .prj) and reprojects WGS84 features with proj4: upload fixtures and packs/examples.
import { zipSync } from "fflate";
import proj4 from "proj4";
import type { AreaGeometry } from "../../src/geo/types.ts";

export type Ring = number[][];
export const MGA56_DEF = "+proj=utm +zone=56 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs";
// The .prj ArcGIS and QGIS write for GDA2020 / MGA zone 56 (EPSG:7856).
export const MGA56_PRJ =
  'PROJCS["GDA2020_MGA_Zone_56",GEOGCS["GCS_GDA2020",DATUM["D_GDA2020",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",153.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

export interface Feature {
  type: "Feature";
  properties: Record<string, unknown>;
  geometry: AreaGeometry | { type: "Point"; coordinates: number[] };
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

const signedArea = (ring: Ring) => {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a +=
      ((ring[j] as number[])[0] as number) * ((ring[i] as number[])[1] as number) -
      ((ring[i] as number[])[0] as number) * ((ring[j] as number[])[1] as number);
  return a / 2;
};

const textBytes = (s: string) => new TextEncoder().encode(s);

/** A .dbf (dBASE III) of character fields, 80 wide, as every Shapefile reader expects beside the .shp. */
function dbfOf(rows: Record<string, unknown>[]): Uint8Array {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, 255);
  const width = 80;
  const headerLength = 32 + 32 * names.length + 1;
  const recordLength = 1 + width * names.length;
  const out = new Uint8Array(headerLength + recordLength * rows.length + 1);
  const view = new DataView(out.buffer);
  out[0] = 0x03;
  view.setUint32(4, rows.length, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, recordLength, true);
  names.forEach((name, k) => {
    out.set(textBytes(name.slice(0, 10)), 32 + 32 * k);
    out[32 + 32 * k + 11] = 0x43; // C: character
    out[32 + 32 * k + 16] = width;
  });
  out[headerLength - 1] = 0x0d;
  rows.forEach((row, i) => {
    const at = headerLength + recordLength * i;
    out.fill(0x20, at, at + recordLength);
    names.forEach((name, k) => {
      const v = row[name];
      out.set(textBytes(v === null || v === undefined ? "" : String(v)).subarray(0, width), at + 1 + width * k);
    });
  });
  out[out.length - 1] = 0x1a;
  return out;
}

/** A .shp of polygons (shape type 5): each feature's rings as parts, outer rings clockwise as the format wants. */
function shpOf(geometries: AreaGeometry[]): Uint8Array {
  const features = geometries.map((g) =>
    (g.type === "Polygon" ? [g.coordinates] : g.coordinates).flatMap((rings) =>
      rings.map((r, i) => (signedArea(r as Ring) > 0 !== i > 0 ? [...(r as Ring)].reverse() : (r as Ring))),
    ),
  );
  const size = features.reduce((n, parts) => n + 8 + 44 + 4 * parts.length + 16 * parts.flat().length, 100);
  const out = new DataView(new ArrayBuffer(size));
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  let at = 100;
  features.forEach((parts, i) => {
    const points = parts.flat();
    const b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of points as [number, number][]) {
      b[0] = Math.min(b[0] as number, x);
      b[1] = Math.min(b[1] as number, y);
      b[2] = Math.max(b[2] as number, x);
      b[3] = Math.max(b[3] as number, y);
    }
    for (let k = 0; k < 4; k++) box[k] = (k < 2 ? Math.min : Math.max)(box[k] as number, b[k] as number);
    const content = 44 + 4 * parts.length + 16 * points.length;
    out.setInt32(at, i + 1);
    out.setInt32(at + 4, content / 2);
    out.setInt32(at + 8, 5, true);
    for (let k = 0; k < 4; k++) out.setFloat64(at + 12 + 8 * k, b[k] as number, true);
    out.setInt32(at + 44, parts.length, true);
    out.setInt32(at + 48, points.length, true);
    let p = at + 52;
    let first = 0;
    for (const ring of parts) {
      out.setInt32(p, first, true);
      p += 4;
      first += ring.length;
    }
    for (const [x, y] of points as [number, number][]) {
      out.setFloat64(p, x, true);
      out.setFloat64(p + 8, y, true);
      p += 16;
    }
    at = p;
  });
  out.setInt32(0, 9994);
  out.setInt32(24, size / 2);
  out.setInt32(28, 1000, true);
  out.setInt32(32, 5, true);
  for (let k = 0; k < 4; k++) out.setFloat64(36 + 8 * k, box[k] as number, true);
  return new Uint8Array(out.buffer);
}

/**
 * A zipped Shapefile (.shp, .dbf and, unless null, .prj) of polygon features. Written here because the writers on npm
 * (@mapbox/shp-write) take minutes for 100,000 features; the service reads it with the `shapefile` library.
 */
export function shapefileZip(features: Feature[], prj: string | null, base = "lots"): Uint8Array {
  const entries: Record<string, Uint8Array> = {
    [`${base}.shp`]: shpOf(features.map((f) => f.geometry as AreaGeometry)),
    [`${base}.dbf`]: dbfOf(features.map((f) => f.properties)),
  };
  if (prj !== null) entries[`${base}.prj`] = textBytes(prj);
  // A fixed time stamp: the same features give the same bytes (packs/examples is committed).
  return zipSync(entries, { mtime: "2024-01-01T00:00:00Z" });
}
