// Reads a GeoJSON FeatureCollection as a stream, one feature at a time, so a large upload is never parsed whole.
import { JSONParser } from "@streamparser/json";
import { UnprocessableError } from "../../errors.ts";
import { crsFromName } from "./crs.ts";
import type { UploadFeature, UploadLayerBuilder } from "./build-layer.ts";
import { UPLOAD_SLICE_BYTES, UploadPacer } from "./pace.ts";

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

/**
 * Feeds every feature of `body` to `builder`; the legacy `crs` member (EPSG names) sets the source projection. The
 * text is parsed a slice at a time and the features checked a batch at a time, yielding between (upload-pace.ts).
 */
export async function readGeoJson(
  body: ReadableStream<Uint8Array>,
  builder: UploadLayerBuilder,
  pacer = new UploadPacer(),
): Promise<void> {
  const parser = new JSONParser({ paths: ["$.type", "$.crs", "$.features.*"], keepStack: false });
  let type: unknown;
  let sawFeatures = false;
  // Features parsed from the current slice, checked once it is parsed (the parser's callback cannot wait).
  let pending: UploadFeature[] = [];
  const addNow = () => {
    for (const f of pending) builder.add(f);
    pending = [];
  };
  const addPaced = async () => {
    const batch = pending;
    pending = [];
    for (const f of batch) {
      await pacer.room();
      builder.add(f);
      pacer.checked();
    }
  };
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
      // Features before it are checked first, so a crs after them is refused as it always was.
      addNow();
      builder.useCrs(crs);
    } else if (typeof key === "number") {
      sawFeatures = true;
      const f = value as Partial<UploadFeature> & { type?: unknown };
      if (f === null || typeof f !== "object" || f.type !== "Feature") {
        // An earlier feature's own refusal comes first, as when each was checked as it was parsed.
        addNow();
        const index = builder.count;
        throw new UnprocessableError(
          `Feature ${index}: not a GeoJSON Feature`,
          ["body", "file", "features", index],
          "geojson_invalid",
        );
      }
      pending.push({ geometry: f.geometry ?? null, properties: f.properties ?? null });
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
      for (let at = 0; at < value.length; at += UPLOAD_SLICE_BYTES) {
        const slice = value.subarray(at, at + UPLOAD_SLICE_BYTES);
        await pacer.room(slice.length);
        parser.write(slice);
        pacer.parsed(slice.length);
        await addPaced();
      }
    }
    if (!parser.isEnded) parser.end();
    await addPaced();
  } catch (err) {
    if (err instanceof UnprocessableError) throw err;
    // Features parsed before the bad JSON are checked first: their own refusal names them, as it always did.
    addNow();
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
