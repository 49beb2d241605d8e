// Upload benchmark: 100,000 lots built into a pack from GeoJSON and from a zipped Shapefile (both MGA zone 56), time and
// peak memory, against JSON.parse + a flatbush build of the same features, each case in a child process of its own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Flatbush from "flatbush";
import { MGA56_PRJ, geoJsonText, gridLots, reproject, shapefileZip } from "../pack/upload-fixtures.ts";
import { encodePack } from "../../src/packs/v1/encode.ts";
import { readGeoJson } from "../../src/packs/upload/read-geojson.ts";
import { readShapefileZip } from "../../src/packs/upload/read-shapefile.ts";
import { UploadLayerBuilder } from "../../src/packs/upload/build-layer.ts";
import type { BenchResult } from "./result.ts";

const LOTS = 100_000;
// Each case runs with V8's heap capped near a Worker's, so garbage is collected as it would be there and the
// peak is of what is live, not of what a roomy heap left uncollected; a case that does not fit fails the run.
// The baseline runs uncapped: parsing the whole file does not fit in that heap, which is the point of streaming.
const HEAP = ["--max-old-space-size=96"];
type Case = "baseline" | "geojson" | "shapefile";
type Measured = { ms: number; peakMb: number; liveMb: number; bytes: number };

// What a Worker's 128 MB counts is the isolate's memory: V8's heap and ArrayBuffer stores. Sampled every 500
// features and after each phase, above what the process held before the input was read. In the memory run
// (`--expose-gc`) each sample collects first, so it is what is live, which is what must fit: V8 collects before
// it gives up. The timed run does not collect (collections would be timed).
let liveBase = 0;
let livePeak = 0;
const collect = (globalThis as { gc?: () => void }).gc;
function sampleLive(): void {
  collect?.();
  const m = process.memoryUsage();
  livePeak = Math.max(livePeak, m.heapUsed + m.arrayBuffers - liveBase);
}
class SampledBuilder extends UploadLayerBuilder {
  override add(feature: Parameters<UploadLayerBuilder["add"]>[0]): void {
    if (this.count % 500 === 0) sampleLive();
    super.add(feature);
  }
}

const mb = (kb: number) => kb / 1024;

// The file as a stream of 64 KiB views, as a request body arrives, without copying it.
function chunks(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65536));
      at += 65536;
    },
  });
}

/** Runs one case in this process; peak is the most resident memory gained over the process before the input was read. */
async function runCase(kind: Case, file: string): Promise<Measured> {
  const before = process.memoryUsage().rss / 1024;
  collect?.();
  const m0 = process.memoryUsage();
  liveBase = m0.heapUsed + m0.arrayBuffers;
  const t = performance.now();
  const input = readFileSync(file);
  sampleLive();
  if (kind === "baseline") {
    const fc = JSON.parse(input.toString("utf8")) as { features: { geometry: { coordinates: number[][][] } }[] };
    sampleLive();
    const fb = new Flatbush(fc.features.length);
    for (const f of fc.features) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const [x, y] of f.geometry.coordinates[0] as [number, number][]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
      fb.add(x0, y0, x1, y1);
    }
    sampleLive();
    fb.finish();
  } else {
    const builder = new SampledBuilder("parcels", null);
    const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (kind === "geojson") await readGeoJson(chunks(bytes), builder);
    else await readShapefileZip(bytes, builder);
    sampleLive();
    const layer = builder.finish();
    sampleLive();
    const pack = encodePack({
      id: "bench",
      version: "1",
      meta: { title: "b", attribution: "", licence: "" },
      layers: [layer],
      order: "index",
    });
    sampleLive();
    // Read after the sample, so the layer (and the input, as a request's body would be) counts while the pack exists.
    if (pack.byteLength === 0 || layer.name === "" || input.byteLength === 0) throw new Error("empty pack");
  }
  const ms = performance.now() - t;
  return {
    ms,
    peakMb: mb(process.resourceUsage().maxRSS - before),
    liveMb: livePeak / 1024 / 1024,
    bytes: input.byteLength,
  };
}

export async function runUploadBenches(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "upload-bench-"));
  try {
    const mga = reproject(gridLots(LOTS));
    const files: Record<Case, string> = {
      baseline: join(dir, "lots-wgs84.geojson"),
      geojson: join(dir, "lots-mga56.geojson"),
      shapefile: join(dir, "lots-mga56.zip"),
    };
    writeFileSync(files.baseline, geoJsonText(gridLots(LOTS)));
    writeFileSync(files.geojson, geoJsonText(mga, 7856));
    writeFileSync(files.shapefile, shapefileZip(mga, MGA56_PRJ));
    const self = fileURLToPath(import.meta.url);
    const run = (kind: Case, flags: string[]): Measured =>
      JSON.parse(
        execFileSync(process.execPath, [...(kind === "baseline" ? [] : HEAP), ...flags, self, kind, files[kind]], {
          encoding: "utf8",
        })
          .trim()
          .split("\n")
          .pop() ?? "",
      );
    // Time and resident memory from a run that never forces a collection; live memory from one that does.
    const measure = (kind: Case): Measured => ({ ...run(kind, []), liveMb: run(kind, ["--expose-gc"]).liveMb });
    const base = measure("baseline");
    const out: BenchResult[] = [
      {
        name: `baseline: JSON.parse + flatbush, ${LOTS / 1000}k lots`,
        value: base.ms,
        unit: "ms",
        note: `${mb(base.bytes / 1024).toFixed(1)} MiB file`,
      },
      { name: "baseline peak resident memory", value: base.peakMb, unit: "MB" },
      { name: "baseline peak live memory (heap + buffers, collected)", value: base.liveMb, unit: "MB" },
    ];
    for (const kind of ["geojson", "shapefile"] as const) {
      const m = measure(kind);
      out.push(
        {
          name: `${kind} (MGA 56) -> pack, ${LOTS / 1000}k lots`,
          value: m.ms,
          unit: "ms",
          baseline: base.ms,
          ratio: base.ms / m.ms,
          note: `${mb(m.bytes / 1024).toFixed(1)} MiB file`,
        },
        {
          name: `${kind} peak live memory, heap + buffers, collected (goal < 96 MB)`,
          value: m.liveMb,
          unit: "MB",
          baseline: base.liveMb,
          ratio: base.liveMb / m.liveMb,
        },
        {
          name: `${kind} peak resident memory (process, garbage included)`,
          value: m.peakMb,
          unit: "MB",
          baseline: base.peakMb,
          ratio: base.peakMb / m.peakMb,
        },
      );
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Child mode: `node upload.ts <case> <file>` prints one JSON line with its figures.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2]) {
  console.log(JSON.stringify(await runCase(process.argv[2] as Case, process.argv[3] ?? "")));
}
