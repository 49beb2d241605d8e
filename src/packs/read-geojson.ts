// Reads a GeoJSON FeatureCollection as a stream, one feature at a time, so a large upload is never parsed whole.
import { JSONParser } from "@streamparser/json";
import { UnprocessableError } from "../errors.ts";
import { crsFromName } from "./crs.ts";
import type { UploadFeature, UploadLayerBuilder } from "./upload-layer.ts";

const notCollection = (what: string) =>
  new UnprocessableError(`The file is not a GeoJSON FeatureCollection: ${what}`, ["body", "file"], "geojson_invalid");

function crsName(value: unknown): string | null {
  const props = (value as { properties?: { name?: unknown } } | null)?.properties;
  return typeof props?.name === "string" ? props.name : null;
}

/** Feeds every feature of `body` to `builder`; the legacy `crs` member (EPSG names) sets the source projection. */
export async function readGeoJson(body: ReadableStream<Uint8Array>, builder: UploadLayerBuilder): Promise<void> {
  const parser = new JSONParser({ paths: ["$.type", "$.crs", "$.features.*"], keepStack: false });
  let type: unknown;
  let sawFeatures = false;
  parser.onValue = ({ value, key, parent }) => {
    if (key === "type" && !Array.isArray(parent)) {
      type = value;
      if (type !== "FeatureCollection") throw notCollection(`its type is ${JSON.stringify(type)}`);
    } else if (key === "crs") {
      const name = crsName(value);
      const crs = name ? crsFromName(name) : null;
      if (!crs) {
        throw new UnprocessableError(
          `Unknown projection in the GeoJSON crs member: ${name ?? JSON.stringify(value)}. Known: WGS84, Web Mercator, GDA94 and GDA2020 (MGA zones 49-56)`,
          ["body", "file", "crs"],
          "unknown_projection",
        );
      }
      builder.useCrs(crs);
    } else if (typeof key === "number") {
      sawFeatures = true;
      const f = value as Partial<UploadFeature> & { type?: unknown };
      if (f === null || typeof f !== "object" || f.type !== "Feature") {
        throw new UnprocessableError(
          `Feature ${builder.count}: not a GeoJSON Feature`,
          ["body", "file", "features", builder.count],
          "geojson_invalid",
        );
      }
      builder.add({ geometry: f.geometry ?? null, properties: f.properties ?? null });
    }
  };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.write(value);
    }
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (err instanceof UnprocessableError) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new UnprocessableError(`The file is not valid JSON: ${why}`, ["body", "file"], "json_invalid");
  } finally {
    reader.releaseLock();
  }
  if (type !== "FeatureCollection") throw notCollection("it has no type FeatureCollection");
  if (!sawFeatures && builder.count === 0) throw notCollection("it has no features");
}
