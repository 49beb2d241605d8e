// The finished object: PackWriter's head with the spilled lot-id index added to its root, the pages, the index, PackWriter's tail.
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { type IndexEntry, rewriteHead } from "../../../src/packs/paged/index.ts";

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
  return rewriteHead(head, (root, h) => ({
    // Spread keeps the key order, so the JSON is the same as PackWriter writes with a lot-id column.
    meta: { ...root.meta, lotIdColumn },
    index,
    // Overview pages (generalised zoning) follow the lot-id index; the root lists their lengths.
    bodyBytes: h.objectLength - h.dataStart + indexBytes,
  }));
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
