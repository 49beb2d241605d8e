// Streams the sorted lot records into a v2 lots pack: PackWriter's pages go to a temporary file as they are
// cut; at the end the head (whose size is known only then), the pages and the lot-id index are joined into
// the output, written beside it and renamed into place.
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  LOT_COLUMNS,
  NEIGHBOURS_COLUMN,
  type NeighbourTable,
  neighbourTable,
  type OutlineRings,
  type PackOptions,
  PackWriter,
  UNITS_PER_DEGREE,
} from "../../src/packs/paged/index.ts";
import { storeTilesInFile } from "../pack/stored-tiles.ts";
import { BUCKETS, openBucket } from "./buckets.ts";
import type { RecordFile } from "./record-codec.ts";
import { UniqueStrataPlans } from "./strata-plans.ts";

const COPY_CHUNK = 8 * 1024 * 1024;

export type Written = { features: number; bytes: number; pages: number };

/**
 * Every lot's neighbours column value in pack order (issue 55), by the query's own adjacency over the quantised rings
 * the pages will hold: a first pass over the buckets keeps each ring as integers (about 8 bytes a vertex, 60 a lot),
 * the rings made positions only while two lots are compared.
 */
function worldNeighbours(dir: string, writers: number): NeighbourTable {
  let coords = new Int32Array(1 << 20);
  let used = 0;
  const starts: number[] = [0];
  for (let b = 0; b < BUCKETS; b++) {
    const { files, order } = openBucket(dir, writers, b, LOT_COLUMNS);
    for (const o of order) {
      const ring = (files[o.file] as RecordFile).decode(o.offset).ring;
      if (used + ring.length > coords.length) {
        const grown = new Int32Array(Math.max(coords.length * 2, used + ring.length));
        grown.set(coords.subarray(0, used));
        coords = grown;
      }
      coords.set(ring, used);
      used += ring.length;
      starts.push(used);
    }
  }
  const ringsAt = (i: number): OutlineRings => {
    const ring: [number, number][] = [];
    for (let k = starts[i] as number; k < (starts[i + 1] as number); k += 2)
      ring.push([(coords[k] as number) / UNITS_PER_DEGREE, (coords[k + 1] as number) / UNITS_PER_DEGREE]);
    return [ring];
  };
  return neighbourTable(starts.length - 1, ringsAt);
}

/** Writes the pack at `out` from the bucket files of `writers` writers in `dir`. */
export async function writePackFile(
  dir: string,
  writers: number,
  out: string,
  opts: PackOptions,
  onBucket: (lots: number) => void,
): Promise<Written> {
  const pagesPath = join(dir, "pages.bin");
  const pagesFd = openSync(pagesPath, "w");
  let pages = 0;
  let features = 0;
  const plans = new UniqueStrataPlans();
  const planAt = LOT_COLUMNS.findIndex((c) => c.name === "strata_plan");
  const neighbours = worldNeighbours(dir, writers);
  const w = new PackWriter({ ...opts, columns: [...opts.columns, NEIGHBOURS_COLUMN] }, (bytes) => {
    writeSync(pagesFd, bytes, 0, bytes.length);
    pages++;
  });
  let ends: { head: Uint8Array; tail: Uint8Array };
  try {
    for (let b = 0; b < BUCKETS; b++) {
      const { files, order } = openBucket(dir, writers, b, LOT_COLUMNS);
      for (const o of order) {
        const r = (files[o.file] as RecordFile).decode(o.offset);
        const ring: number[][] = [];
        for (let i = 0; i < r.ring.length; i += 2)
          ring.push([(r.ring[i] as number) / UNITS_PER_DEGREE, (r.ring[i + 1] as number) / UNITS_PER_DEGREE]);
        if (planAt >= 0) r.values[planAt] = plans.take(r.values[planAt]) as (typeof r.values)[number];
        const values = [...r.values, neighbours.valueAt(features++)];
        await w.add({ geometry: { type: "Polygon", coordinates: [ring] }, values });
      }
      onBucket(order.length);
    }
    // The last page is cut here, so the pages file stays open until then.
    ends = await w.finish();
  } finally {
    closeSync(pagesFd);
  }
  const { head, tail } = ends;
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, head, 0, head.length);
    const src = openSync(pagesPath, "r");
    const buf = Buffer.allocUnsafe(COPY_CHUNK);
    try {
      for (let n = readSync(src, buf, 0, COPY_CHUNK, null); n > 0; n = readSync(src, buf, 0, COPY_CHUNK, null)) {
        writeSync(fd, buf, 0, n);
      }
    } finally {
      closeSync(src);
    }
    writeSync(fd, tail, 0, tail.length);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  rmSync(pagesPath, { force: true });
  try {
    // Before the rename, so a pack at `out` always has the tiles it must store whole.
    await storeTilesInFile(tmp);
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { features, bytes: statSync(out).size, pages };
}
