// Reads a GeoJSON FeatureCollection file feature by feature (synchronous reads of one chunk at a time).
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { crsFromName, type Reproject } from "../../../src/packs/upload/crs.ts";
import type { InputFeature } from "../layers.ts";
import { FeatureSplitter, GeoJsonInputError } from "./geojson-split.ts";

export { GeoJsonInputError };

export type ReadOptions = {
  // Called after each chunk with the bytes read so far and the file's size.
  onBytes?: (read: number, total: number) => void;
  chunkBytes?: number;
};

export type ReadSummary = { features: number; bytes: number; crs: string | null };

const DEFAULT_CHUNK = 1 << 20;

function reprojectCoords(c: unknown, to: Reproject): unknown {
  if (!Array.isArray(c)) return c;
  if (typeof c[0] === "number") {
    const [x, y] = to(c[0], c[1] as number);
    return [x, y];
  }
  return c.map((x) => reprojectCoords(x, to));
}

/** Calls `onFeature(index, feature)` for features[0], features[1], ...; a GeoJSON `crs` other than WGS84 is reprojected. */
export function readFeatures(
  file: string,
  onFeature: (index: number, feature: InputFeature) => void,
  opts: ReadOptions = {},
): ReadSummary {
  const name = basename(file);
  let reproject: Reproject | null = null;
  let crs: string | null = null;
  let features = 0;
  const splitter = new FeatureSplitter(name, {
    member(key, value) {
      if (key === "type" && value !== "FeatureCollection") {
        throw new GeoJsonInputError(
          `${name}: is not a GeoJSON FeatureCollection (its type is ${JSON.stringify(value)})`,
        );
      }
      if (key !== "crs") return;
      const n = (value as { properties?: { name?: unknown } } | null)?.properties?.name;
      const known = typeof n === "string" ? crsFromName(n) : null;
      if (!known) {
        throw new GeoJsonInputError(
          `${name}: unknown projection in its crs member (${JSON.stringify(value)}); known: WGS84, Web Mercator, GDA94 and GDA2020 (MGA zones 49-56)`,
        );
      }
      if (features > 0 && known.toWgs84) {
        throw new GeoJsonInputError(
          `${name}: its crs member comes after the features; put it first or reproject to WGS84`,
        );
      }
      crs = known.name;
      reproject = known.toWgs84;
    },
    feature(index, text) {
      let f: unknown;
      try {
        f = JSON.parse(text);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        throw new GeoJsonInputError(`${name}: features[${index}] is not valid JSON (${why})`, index);
      }
      const feat = f as { type?: unknown; geometry?: unknown; properties?: unknown };
      if (feat.type !== "Feature") {
        throw new GeoJsonInputError(
          `${name}: features[${index}] is not a GeoJSON Feature (its type is ${JSON.stringify(feat.type)})`,
          index,
        );
      }
      const props = feat.properties;
      if (props !== undefined && props !== null && (typeof props !== "object" || Array.isArray(props))) {
        throw new GeoJsonInputError(`${name}: features[${index}] has properties that are not an object`, index);
      }
      let geometry = (feat.geometry ?? null) as InputFeature["geometry"];
      if (geometry !== null && reproject) {
        geometry = { ...geometry, coordinates: reprojectCoords(geometry.coordinates, reproject) };
      }
      features++;
      onFeature(index, { geometry, properties: (props ?? null) as Record<string, unknown> | null });
    },
  });
  const fd = openSync(file, "r");
  try {
    const total = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(opts.chunkBytes ?? DEFAULT_CHUNK);
    let read = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      splitter.write(buf.subarray(0, n));
      read += n;
      opts.onBytes?.(read, total);
    }
    splitter.end();
    return { features, bytes: read, crs };
  } finally {
    closeSync(fd);
  }
}
