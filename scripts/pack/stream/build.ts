// Builds a v2 lots pack from a cadastre GeoJSON of any size with memory flat in its size.
//
// 1. read: the parcels file is streamed feature by feature; each lot (fields mapped, geometry as float64 columns,
//    box centre) is spilled as a binary record into chunk files of `runBytes` (read-lots.ts);
// 2. sort: each chunk is sorted by the Hilbert key of its lots' centres over the centres' bbox (known only now);
// 3. facts: the runs are merged k ways in Hilbert order; each lot's record is computed with lotRecordFrom over the
//    overlay layers (held in memory as a v1 pack) and fed to PackWriter, whose pages go to a temp file, while the
//    lot-id index's (hash, page) pairs are spilled and sorted on disk too (lot-facts.ts, lot-id-index.ts);
// 4. write: head (root with the index) + pages + index pages + PackWriter's overview pages, renamed into place
//    (assemble.ts).
// The lots come out in the order and pages convertToLotsPack gives the same data (ties in a Hilbert cell by input order).
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  hilbertOf,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  NEIGHBOURS_COLUMN,
} from "../../../src/packs/paged/index.ts";
import type { Pack, PackMeta } from "../../../src/packs/types.ts";
import type { LayerName } from "../layers.ts";
import { storeTilesInFile } from "../stored-tiles.ts";
import { assemble, headWithLotIndex } from "./assemble.ts";
import { writeLotPages } from "./lot-facts.ts";
import { CENTRE_X_AT, CENTRE_Y_AT } from "./lot-frame.ts";
import { LotIdIndexSpill } from "./lot-id-index.ts";
import { loadOverlayPack, withCadastreBox } from "./overlays.ts";
import { Progress, type ProgressOptions } from "./progress.ts";
import type { BuildSpec } from "../cli.ts";
import { NeighbourValues, neighbourRuns } from "./neighbour-sweep.ts";
import { readLots } from "./read-lots.ts";
import { FileWriter, mergeDown, SortScratch, Spill, sortChunk } from "./runs.ts";

// The v1 build's spec (pack metadata, GTFS and TopoJSON options) with the cadastre streamed apart from the overlays.
export type StreamBuildSpec = Omit<BuildSpec, "files"> & {
  out: string;
  // The cadastre (GeoJSON FeatureCollection, WGS84 or a GeoJSON crs this service reprojects): streamed.
  parcels: string;
  // The overlay layers, one file per layer as `build` takes them: held in memory.
  files: Partial<Record<Exclude<LayerName, "parcels">, string>>;
  // Packs whose layers also give facts (e.g. packs/sydney-suburbs.pack), after the overlay files'.
  context?: readonly Pack[];
  asAt?: Record<string, string>;
  // More of the root's `info` beside title, attribution, licence and note (an import's provenance).
  info?: Record<string, string>;
  pageBytes?: number;
  // Bytes of lot records sorted in memory at once (default 32 MiB): the builder's one large buffer.
  runBytes?: number;
  // Runs merged at once (default 64); more are merged in passes first.
  fanIn?: number;
  // Read buffer per run while merging (default 256 KiB).
  readBufferBytes?: number;
  tmpDir?: string;
  progress?: ProgressOptions;
  // Each lot's neighbours precomputed (issue 55, the `neighbours` column), by a sweep with memory flat in the input.
  neighbours?: boolean;
};

export type StreamBuildResult = {
  out: string;
  bytes: number;
  lots: number;
  pages: number;
  // Sorted runs of lot records (before any merge passes) and of lot-id index pairs.
  runs: number;
  indexRuns: number;
  skipped: number;
  inputBytes: number;
  layers: string[];
  warnings: string[];
  // Tiles stored whole because their pages could not be read within a tile's 2 requests (src/tiles/prebuilt-tiles.ts).
  storedTiles: number;
  // The neighbours sweep's work: adjoining pairs, pairs measured, and the most lots it held at once.
  neighbours: { pairs: number; pairsCompared: number; crossing: number } | null;
  seconds: {
    overlays: number;
    read: number;
    sort: number;
    neighbours: number;
    facts: number;
    write: number;
    total: number;
  };
};

export const DEFAULT_RUN_BYTES = 32 << 20;
const DEFAULT_FAN_IN = 64;
const DEFAULT_READ_BUFFER = 256 << 10;

const since = (t: number) => (performance.now() - t) / 1000;

// Phases 1 and 2; the run buffer is handed on to the lot-id index's spill, the one large buffer of the build.
function readAndSort(spec: StreamBuildSpec, dir: string, progress: Progress) {
  const buffer = new Uint8Array(spec.runBytes ?? DEFAULT_RUN_BYTES);
  // A sixth of it is the sort's scratch (20 bytes a record, records of 120 bytes or more); chunks take the rest.
  const chunkBytes = buffer.length - 8 * Math.floor(buffer.length / 48);
  const spill = new Spill(dir, "lots", buffer.subarray(0, chunkBytes));
  const t = performance.now();
  const read = readLots(spec.parcels, spill, progress, spec.state);
  const readS = since(t);
  const t1 = performance.now();
  const chunks = spill.finish();
  progress.start("sort", "lots", read.lots);
  const keyOf = (p: Uint8Array) => {
    const v = new DataView(p.buffer, p.byteOffset, p.byteLength);
    return hilbertOf(v.getFloat64(CENTRE_X_AT, true), v.getFloat64(CENTRE_Y_AT, true), read.centres);
  };
  // Every chunk's sort in the same scratch: nothing allocated per chunk (a larger input, more chunks).
  const scratch = new SortScratch(buffer.subarray(chunkBytes));
  let sorted = 0;
  const runs = chunks.map((chunk, i) => {
    const run = join(dir, `lots-${String(i).padStart(5, "0")}.run`);
    sorted += sortChunk(chunk, run, spill.buffer, keyOf, scratch);
    progress.update(sorted, read.bytes);
    return run;
  });
  progress.finish(sorted, read.bytes);
  return { read, runs, buffer, readS, sortS: since(t1) };
}

export async function buildLotsPackStreamed(spec: StreamBuildSpec): Promise<StreamBuildResult> {
  const t0 = performance.now();
  const progress = new Progress(spec.progress);
  const fanIn = Math.max(2, spec.fanIn ?? DEFAULT_FAN_IN);
  const readBuffer = spec.readBufferBytes ?? DEFAULT_READ_BUFFER;
  const version = spec.version ?? "1";
  const meta: PackMeta = { title: spec.title, attribution: spec.attribution ?? "", licence: spec.licence ?? "" };
  if (spec.note) meta.note = spec.note;

  const overlays = loadOverlayPack({
    id: spec.id,
    version,
    meta,
    files: spec.files,
    synthetic: new Set(spec.synthetic ?? []),
    state: spec.state,
    topoObject: spec.topoObject,
    gtfsMode: spec.gtfsMode,
  });
  const overlaysS = since(t0);
  const warnings = [...overlays.warnings];

  const tmp = mkdtempSync(join(spec.tmpDir ?? tmpdir(), "pack-build-"));
  let pages: FileWriter | null = null;
  try {
    const lotsDir = join(tmp, "lots");
    const indexDir = join(tmp, "lotid");
    mkdirSync(lotsDir);
    mkdirSync(indexDir);
    const { read, runs, buffer, readS, sortS } = readAndSort(spec, lotsDir, progress);
    if (read.skipped) warnings.push(`parcels: skipped ${read.skipped} features of the wrong geometry type`);

    const tn = performance.now();
    const lotRuns = mergeDown(runs, lotsDir, fanIn, readBuffer, buffer);
    let sweep: ReturnType<typeof neighbourRuns> | null = null;
    if (spec.neighbours) {
      const dir = join(tmp, "neighbours");
      mkdirSync(dir);
      progress.start("neighbours", "lots", read.lots);
      sweep = neighbourRuns({ runs: lotRuns, dir, buffer, fanIn, readBufferBytes: readBuffer });
      progress.finish(read.lots, read.bytes);
    }
    const neighboursS = since(tn);

    const t2 = performance.now();
    pages = new FileWriter(join(tmp, "pages.bin"));
    // Index pairs are 16-byte frames: 8 MiB chunks (512k pairs) keep their sort small. The rest of the chunk buffer
    // is the merges' read buffers, so more runs (a larger input) cost no more memory.
    const indexChunk = Math.min(buffer.length, 8 << 20);
    const pool = buffer.subarray(indexChunk);
    const index = new LotIdIndexSpill(indexDir, buffer.subarray(0, indexChunk), pool);
    const countsDir = join(tmp, "counts");
    mkdirSync(countsDir);
    const info: Record<string, string> = { title: meta.title, attribution: meta.attribution, licence: meta.licence };
    if (meta.note) info.note = meta.note;
    Object.assign(info, spec.info);
    const {
      head,
      tail,
      pages: pageCount,
    } = await writeLotPages(
      {
        file: spec.parcels,
        runs: lotRuns,
        readBufferBytes: readBuffer,
        fanIn,
        pool,
        countsDir,
        pack: {
          id: spec.id,
          version,
          columns: sweep ? [...LOT_COLUMNS, NEIGHBOURS_COLUMN] : LOT_COLUMNS,
          summary: LOT_SUMMARY,
          asAt: spec.asAt ?? {},
          info,
          ...(spec.pageBytes ? { pageBytes: spec.pageBytes } : {}),
        },
        packs: [withCadastreBox(overlays.pack, read.vertices), ...(spec.context ?? [])],
        pages,
        index,
        lots: read.lots,
        bytesRead: read.bytes,
        ...(sweep ? { neighbours: new NeighbourValues(sweep.runs, readBuffer) } : {}),
      },
      progress,
    );
    pages.close();
    const factsS = since(t2);

    const t3 = performance.now();
    const indexFile = join(tmp, "lotid.bin");
    progress.start("index", "lots", index.count);
    const lotIndex = index.finish(indexFile, fanIn, readBuffer, (n) => progress.update(n, read.bytes));
    progress.finish(index.count, read.bytes);
    const fullHead = headWithLotIndex(head, lotIndex.entries, lotIndex.bytes, LOT_ID_COLUMN);
    mkdirSync(dirname(resolve(spec.out)), { recursive: true });
    assemble(spec.out, fullHead, [pages.path, indexFile], tail);
    // Tiles whose pages lie too far apart to read in 2 requests, stored whole (a second pass over the pack).
    const stored = await storeTilesInFile(spec.out);
    const bytes = statSync(spec.out).size;
    return {
      out: spec.out,
      bytes,
      lots: read.lots,
      pages: pageCount,
      runs: runs.length,
      indexRuns: lotIndex.runs,
      skipped: read.skipped,
      inputBytes: read.bytes,
      layers: overlays.layers,
      warnings,
      storedTiles: stored.tiles,
      neighbours: sweep ? { pairs: sweep.pairs, pairsCompared: sweep.pairsCompared, crossing: sweep.crossing } : null,
      seconds: {
        overlays: overlaysS,
        read: readS,
        sort: sortS,
        neighbours: neighboursS,
        facts: factsS,
        write: since(t3),
        total: since(t0),
      },
    };
  } finally {
    pages?.abandon();
    rmSync(tmp, { recursive: true, force: true });
  }
}
