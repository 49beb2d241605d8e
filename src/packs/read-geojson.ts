// Reads a GeoJSON FeatureCollection as a stream, one feature at a time, so a large upload is never parsed whole.
import { JSONParser } from "@streamparser/json";
import { UnprocessableError } from "../errors.ts";
import { crsFromName } from "./crs.ts";
import type { UploadFeature, UploadLayerBuilder } from "./upload-layer.ts";

const notCollection = (what: string) =>
  new UnprocessableError(`The file is not a GeoJSON FeatureCollection: ${what}`, ["body", "file"], "geojson_invalid");

const TAKES =
  "A pack takes a GeoJSON FeatureCollection or a zipped Shapefile (.shp, .dbf and .prj together); to score sites listed in a CSV, use Batch scoring on the map.";

/** A file whose first character cannot start JSON (a CSV, plain text) is told so in words, before any parsing. */
function notJson(head: Uint8Array): void {
  const text = new TextDecoder().decode(head.subarray(0, 200)).replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (start.length === 0 || start.startsWith("{") || start.startsWith("[")) return;
  const line = start.split(/\r?\n/, 1)[0]?.slice(0, 60) ?? "";
  const csv = /[,;\t]/.test(line) ? " (it looks like a CSV)" : "";
  throw new UnprocessableError(
    `The file is not GeoJSON${csv}: it begins "${line}". ${TAKES}`,
    ["body", "file"],
    "geojson_invalid",
  );
}

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
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (first && value.length > 0) {
        first = false;
        notJson(value);
      }
      parser.write(value);
    }
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (err instanceof UnprocessableError) throw err;
    // The parser's own words name its states (BOM_OR_START, VALUE); a person needs what went wrong.
    const said = err instanceof Error ? err.message : String(err);
    const char = /Unexpected (?:[A-Z_]+ \()?"(.+?)"/.exec(said)?.[1];
    const what = /not all the data was received/.test(said)
      ? "it ends before its JSON does (cut short?)"
      : char
        ? `it holds an unexpected "${char}"`
        : "it cannot be read as JSON";
    throw new UnprocessableError(`The file is not valid JSON: ${what}. ${TAKES}`, ["body", "file"], "json_invalid");
  } finally {
    reader.releaseLock();
  }
  if (type !== "FeatureCollection") throw notCollection("it has no type FeatureCollection");
  if (!sawFeatures && builder.count === 0) throw notCollection("it has no features");
}
