// A pack's header and root written again with other metadata or index: the bytes after the head keep their order.
import { crc32 } from "../crc32.ts";
import type { Snapshot } from "./reader.ts";
import { decodeRoot, encodeRoot, type IndexEntry, indexEntriesOf, pageEntriesOf, type Root } from "./root.ts";
import {
  align8,
  FORMAT_VERSION,
  type Header,
  HEADER_BYTES,
  readHeader,
  type RootMeta,
  type StoredTilesMeta,
  writeHeader,
} from "./schema.ts";

export type HeadEdit = { meta: RootMeta; index: readonly IndexEntry[]; bodyBytes: number };

/**
 * The new head (header + root, padded to where the pages start) of `head` edited: `bodyBytes` is how many bytes
 * follow the head in the new object (pages, lot-id index, overview pages, stored tiles).
 */
export function rewriteHead(head: Uint8Array, edit: (root: Root, h: Header) => HeadEdit): Uint8Array {
  const h = readHeader(head, "new pack");
  const root = decodeRoot(head.subarray(HEADER_BYTES, HEADER_BYTES + h.rootLength), h, "new pack");
  const { meta, index, bodyBytes } = edit(root, h);
  const rootBytes = encodeRoot(meta, pageEntriesOf(root), index);
  const dataStart = align8(HEADER_BYTES + rootBytes.length);
  const header = writeHeader({
    version: FORMAT_VERSION,
    rootLength: rootBytes.length,
    rootCrc: crc32(rootBytes),
    dataStart,
    pageCount: root.pageCount,
    featureCount: h.featureCount,
    indexPageCount: index.length,
    objectLength: dataStart + bodyBytes,
  });
  const out = new Uint8Array(dataStart);
  out.set(header, 0);
  out.set(rootBytes, HEADER_BYTES);
  return out;
}

/** How many bytes the header and root take in this version of the object (where its pages start). */
export function headLength(s: Snapshot): number {
  return s.header.dataStart;
}

/**
 * The new head of a pack given its stored tiles' list, and which of the old object's bytes it keeps (a list stored
 * before is replaced): the new object is head, old bytes [keepStart, keepEnd), then the tiles' bytes in list order.
 */
export function headWithTiles(
  head: Uint8Array,
  s: Snapshot,
  tiles: StoredTilesMeta,
): { head: Uint8Array; keepStart: number; keepEnd: number } {
  const keepStart = s.header.dataStart;
  const keepEnd = s.root.tileOffsets[0] as number;
  let tileBytes = 0;
  for (const e of tiles.list) tileBytes += e[3];
  return {
    head: rewriteHead(head, (root) => ({
      meta: { ...root.meta, tiles },
      index: indexEntriesOf(root),
      bodyBytes: keepEnd - keepStart + tileBytes,
    })),
    keepStart,
    keepEnd,
  };
}
