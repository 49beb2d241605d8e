// Reads a zipped Shapefile (.shp, .dbf, .prj, optional .cpg): unzipped under a byte budget (./zip.ts), records read one by one with `shapefile`.
import { open } from "shapefile";
import { TooLargeError, UnprocessableError } from "../../errors.ts";
import { crsFromPrj } from "./crs.ts";
import { dbfHeader } from "./dbf-header.ts";
import { shpRecordCount } from "./shp-records.ts";
import type { UploadLayerBuilder } from "./build-layer.ts";
import { UploadPacer } from "./pace.ts";
import { type ZipWork, ZipError, newZipWork, unzipMembers } from "./zip.ts";

/** What the members the reader keeps may unpack to: a Worker has 128 MB. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

const WANTED = /\.(shp|dbf|prj|cpg)$/i;
const invalid = (msg: string, type = "shapefile_invalid") => new UnprocessableError(msg, ["body", "file"], type);

function unzip(bytes: Uint8Array, work: ZipWork): Map<string, { name: string; bytes: Uint8Array }> {
  const byExt = new Map<string, { name: string; bytes: Uint8Array }>();
  // Refused while the directory is walked, before anything inflates.
  const keep = (name: string) => {
    if (!WANTED.test(name) || name.startsWith("__MACOSX/")) return false;
    const ext = (name.split(".").pop() ?? "").toLowerCase();
    const seen = byExt.get(ext);
    if (seen)
      throw invalid(`The zip holds more than one .${ext} (${seen.name}, ${name}): upload one Shapefile per zip`);
    byExt.set(ext, { name, bytes: new Uint8Array(0) });
    return true;
  };
  let files: Map<string, Uint8Array>;
  try {
    files = unzipMembers(bytes, keep, MAX_UNZIPPED_BYTES, work);
  } catch (err) {
    if (!(err instanceof ZipError)) throw err;
    throw err.overBudget ? new TooLargeError(err.message) : invalid(err.message, "zip_invalid");
  }
  for (const entry of byExt.values()) entry.bytes = files.get(entry.name) ?? entry.bytes;
  return byExt;
}

function decoderLabel(cpg: Uint8Array | undefined): string {
  const label = cpg ? new TextDecoder().decode(cpg).trim().toLowerCase() : "";
  const wanted = /^(utf-?8|65001)$/.test(label) ? "utf-8" : label || "windows-1252";
  try {
    new TextDecoder(wanted);
    return wanted;
  } catch {
    return "utf-8";
  }
}

/** Feeds every record of the zipped Shapefile to `builder`, reprojected from its .prj. */
export async function readShapefileZip(
  bytes: Uint8Array,
  builder: UploadLayerBuilder,
  work: ZipWork = newZipWork(),
  pacer = new UploadPacer(),
): Promise<void> {
  const files = unzip(bytes, work);
  const shp = files.get("shp");
  const dbf = files.get("dbf");
  const prj = files.get("prj");
  const cpg = files.get("cpg");
  if (!shp) throw invalid("The zip holds no .shp file");
  if (!dbf) throw invalid(`The zip holds no .dbf beside ${shp.name}: its attributes are needed`);
  if (!prj) {
    throw invalid(
      `The zip holds no .prj beside ${shp.name}: its projection is unknown. Export it with its .prj`,
      "unknown_projection",
    );
  }
  const wkt = new TextDecoder().decode(prj.bytes);
  const crs = crsFromPrj(wkt);
  if (!crs) {
    throw invalid(
      `Unknown projection in ${prj.name}: ${wkt.slice(0, 120)}. Known: WGS84, Web Mercator, GDA94 and GDA2020 (MGA zones 49-56)`,
      "unknown_projection",
    );
  }
  builder.useCrs(crs);
  const header = dbfHeader(dbf.bytes, dbf.name);
  if (typeof header === "string") throw invalid(header, "dbf_mismatch");
  const shapes = shpRecordCount(shp.bytes, shp.name);
  if (typeof shapes === "string") throw invalid(shapes);
  // Every shape needs its row: the reader would give shapes past the .dbf's end no attributes at all.
  if (shapes !== header.records) {
    throw invalid(
      `${dbf.name} holds ${header.records.toLocaleString("en-AU")} records but ${shp.name} holds ${shapes.toLocaleString("en-AU")}: each shape needs one row of attributes`,
      "dbf_mismatch",
    );
  }
  // The reader reads from these arrays record by record; dropping the map lets the zip's copy go first.
  files.clear();
  let source: Awaited<ReturnType<typeof open>>;
  try {
    source = await open(shp.bytes, dbf.bytes, { encoding: decoderLabel(cpg?.bytes) });
  } catch (err) {
    throw invalid(`${shp.name} is not a readable Shapefile: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (let record = 0; ; record++) {
    let next: Awaited<ReturnType<typeof source.read>>;
    try {
      next = await source.read();
    } catch (err) {
      throw invalid(
        `Record ${record} of ${shp.name} cannot be read: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (next.done) break;
    await pacer.room();
    builder.add({
      geometry: next.value.geometry as { type: string; coordinates?: unknown } | null,
      properties: next.value.properties,
    });
    pacer.checked();
  }
}
