// The finished object: PackWriter's head with the spilled lot-id index added to its root, the pages, the index, PackWriter's tail.
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { crc32 } from "../../../src/packs/crc32.ts";
import { decodeRoot, encodeRoot, type IndexEntry, type PageEntry } from "../../../src/packs/paged/root.ts";
import {
  align8,
  FORMAT_VERSION,
  HEADER_BYTES,
  readHeader,
  UNITS_PER_DEGREE,
  writeHeader,
} from "../../../src/packs/paged/schema.ts";

/**
 * The head (header + root) PackWriter would have written had it kept the lot-id index itself: its root re-read,
 * the index entries and the lot-id column added, and the header's lengths and offsets updated.
 */
export function headWithLotIndex(
  head: Uint8Array,
  index: readonly IndexEntry[],
  indexBytes: number,
  lotIdColumn: string,
): Uint8Array {
  const h = readHeader(head, "new pack");
  const root = decodeRoot(head.subarray(HEADER_BYTES, HEADER_BYTES + h.rootLength), h, "new pack");
  const pages: PageEntry[] = [];
  for (let i = 0; i < root.pageCount; i++) {
    const zones = new Set<number>();
    for (let z = 0; z < root.meta.zoneDict.length; z++) {
      if ((((root.zoneBits[i * root.zoneBytes + (z >> 3)] as number) >> (z & 7)) & 1) === 1) zones.add(z);
    }
    const box = [0, 1, 2, 3].map((k) => Math.round((root.pageBoxes[4 * i + k] as number) * UNITS_PER_DEGREE));
    pages.push({
      length: (root.pageOffsets[i + 1] as number) - (root.pageOffsets[i] as number),
      crc: root.pageCrcs[i] as number,
      count: root.pageCounts[i] as number,
      box: box as [number, number, number, number],
      max: root.pageMax.map((m) => m[i] as number),
      flags: root.pageFlags[i] as number,
      zones,
    });
  }
  // Spread keeps the key order, so the JSON is the same as PackWriter writes with a lot-id column.
  const rootBytes = encodeRoot({ ...root.meta, lotIdColumn }, pages, index);
  const dataStart = align8(HEADER_BYTES + rootBytes.length);
  const dataBytes = (root.pageOffsets[root.pageCount] as number) - h.dataStart;
  // Overview pages (generalised zoning) follow the lot-id index; the root lists their lengths.
  const overviewBytes = (root.overviewOffsets.at(-1) as number) - (root.overviewOffsets[0] as number);
  const header = writeHeader({
    version: FORMAT_VERSION,
    rootLength: rootBytes.length,
    rootCrc: crc32(rootBytes),
    dataStart,
    pageCount: root.pageCount,
    featureCount: h.featureCount,
    indexPageCount: index.length,
    objectLength: dataStart + dataBytes + indexBytes + overviewBytes,
  });
  const out = new Uint8Array(dataStart);
  out.set(header, 0);
  out.set(rootBytes, HEADER_BYTES);
  return out;
}

/** Writes head + the files' bytes + tail to `out` through a temporary name, so a failed build leaves no partial pack. */
export function assemble(out: string, head: Uint8Array, parts: readonly string[], tail: Uint8Array): number {
  const tmp = `${out}.partial-${process.pid}`;
  const fd = openSync(tmp, "w");
  let open = true;
  let total = 0;
  try {
    writeSync(fd, head);
    total += head.length;
    const buf = new Uint8Array(8 << 20);
    for (const p of parts) {
      const src = openSync(p, "r");
      try {
        for (;;) {
          const n = readSync(src, buf, 0, buf.length, null);
          if (n === 0) break;
          writeSync(fd, buf, 0, n);
          total += n;
        }
      } finally {
        closeSync(src);
      }
    }
    writeSync(fd, tail);
    total += tail.length;
    closeSync(fd);
    open = false;
    renameSync(tmp, out);
    return total;
  } catch (e) {
    if (open) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}
