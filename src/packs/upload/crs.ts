// Coordinate reference systems of uploads: recognised from a .prj or a GeoJSON `crs`, reprojected to WGS84 with proj4.
import proj4 from "proj4";

/** Turns one source coordinate into [lon, lat] (WGS84). */
export type Reproject = (x: number, y: number) => [number, number];

export interface Crs {
  /** What was recognised, for messages: "EPSG:28356". */
  name: string;
  /** Null when the source is already longitude/latitude on a WGS84-compatible datum. */
  toWgs84: Reproject | null;
}

// GDA94 and GDA2020 are taken as WGS84 (towgs84 zero), as the EPSG proj4 strings do: they differ by under 2 m.
const GRS80_ZERO = "+ellps=GRS80 +towgs84=0,0,0,0,0,0,0";
const MERCATOR =
  "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs";
const mga = (zone: number) => `+proj=utm +zone=${zone} +south ${GRS80_ZERO} +units=m +no_defs`;

const GEOGRAPHIC = new Set([4326, 4283, 7844, 4939, 4979]);
const MGA_ZONES = [49, 50, 51, 52, 53, 54, 55, 56];

/** The proj4 definition of an EPSG code this service knows, or null (geographic codes need none). */
function definitionOf(code: number): string | null | undefined {
  if (GEOGRAPHIC.has(code)) return null;
  if (code === 3857 || code === 900913 || code === 102100) return MERCATOR;
  for (const zone of MGA_ZONES) {
    if (code === 28300 + zone || code === 7800 + zone) return mga(zone);
  }
  return undefined;
}

function fromDefinition(name: string, def: string | null): Crs {
  if (def === null) return { name, toWgs84: null };
  const converter = proj4(def, "WGS84");
  return { name, toWgs84: (x, y) => converter.forward([x, y]) as [number, number] };
}

/** A CRS by EPSG code, or null when it is not one this service reprojects from. */
export function crsFromEpsg(code: number): Crs | null {
  const def = definitionOf(code);
  return def === undefined ? null : fromDefinition(`EPSG:${code}`, def);
}

/** A GeoJSON `crs` member's name ("urn:ogc:def:crs:EPSG::28356", "EPSG:28356", CRS84), or null when unknown. */
export function crsFromName(name: string): Crs | null {
  if (/CRS84$/i.test(name.trim())) return crsFromEpsg(4326);
  const m = /EPSG:+(?:[\d.]*:)?(\d+)\s*$/i.exec(name.trim());
  return m ? crsFromEpsg(Number(m[1])) : null;
}

/** Recognises a .prj (WKT 1 or 2, ESRI or OGC flavour) by its EPSG id, else by its name; null when unknown. */
export function crsFromPrj(wkt: string): Crs | null {
  const text = wkt.trim();
  // The outermost id is the last one in WKT: inner ids name the datum, ellipsoid and units.
  const ids = [...text.matchAll(/(?:AUTHORITY|ID)\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]/gi)];
  const last = ids.at(-1);
  if (last && /\]\s*\]\s*$/.test(text.slice(last.index))) {
    const known = crsFromEpsg(Number(last[1]));
    if (known) return known;
  }
  const name = /^\s*(PROJCS|PROJCRS|GEOGCS|GEOGCRS|GEODCRS)\[\s*"([^"]*)"/i.exec(text);
  if (!name) return null;
  const kind = (name[1] as string).toUpperCase();
  const label = (name[2] as string).replace(/[\s/_-]+/g, " ");
  if (kind.startsWith("PROJ")) {
    const zone = /\bMGA\s*(?:zone\s*)?(\d{2})\b/i.exec(label);
    if (zone && /GDA\s*(94|1994|2020)/i.test(label)) {
      const code = /2020/.test(label) ? 7800 + Number(zone[1]) : 28300 + Number(zone[1]);
      return crsFromEpsg(code);
    }
    if (/Pseudo Mercator|Mercator Auxiliary Sphere|Popular Visuali[sz]ation/i.test(label)) return crsFromEpsg(3857);
    return null;
  }
  if (/WGS\s*(84|1984)/i.test(label)) return crsFromEpsg(4326);
  if (/GDA\s*(94|1994)/i.test(label)) return crsFromEpsg(4283);
  if (/GDA\s*2020/i.test(label)) return crsFromEpsg(7844);
  return null;
}
