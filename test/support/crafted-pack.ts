// A v2 pack taken apart (header fields, root metadata, root tables, body) and put back with every checksum
// recomputed, so a test can change any field and the reader sees a pack whose checksums all pass.
import { crc32 } from "../../src/packs/crc32.ts";
import { decodeUtf8, encodeUtf8 } from "../../src/packs/paged/bytes.ts";
import { align8, HEADER_BYTES, type Header, readHeader, writeHeader } from "../../src/packs/paged/schema.ts";

// The root's tables in the order decodeRoot takes them (each 4-aligned).
export type Tables = {
  lengths: Uint32Array;
  crcs: Uint32Array;
  counts: Uint32Array;
  boxes: Int32Array;
  max: Float32Array[];
  flags: Uint8Array;
  zoneBits: Uint8Array;
  indexFirstHash: Uint32Array;
  indexLengths: Uint32Array;
  indexCrcs: Uint32Array;
};

export type Crafted = { header: Header; meta: Record<string, unknown>; tables: Tables; body: Uint8Array };

/** The pack's parts, each a copy the caller may change. */
export function takeApart(bytes: Uint8Array): Crafted {
  const header = readHeader(bytes, "crafted");
  const root = bytes.slice(HEADER_BYTES, HEADER_BYTES + header.rootLength);
  const v = new DataView(root.buffer);
  const jl = v.getUint32(0, true);
  const meta = JSON.parse(decodeUtf8(root.subarray(4, 4 + jl))) as Record<string, unknown>;
  let at = 4 + jl;
  const take = (n: number, width: number): Uint8Array => {
    at = (at + 3) & ~3;
    const out = root.slice(at, at + n * width);
    at += n * width;
    return out;
  };
  const u32 = (n: number) => new Uint32Array(take(n, 4).buffer);
  const p = header.pageCount;
  const l = header.indexPageCount;
  const summary = meta.summary as { max: string[] };
  const zoneBytes = Math.ceil((meta.zoneDict as string[]).length / 8);
  const tables: Tables = {
    lengths: u32(p),
    crcs: u32(p),
    counts: u32(p),
    boxes: new Int32Array(take(4 * p, 4).buffer),
    max: summary.max.map(() => new Float32Array(take(p, 4).buffer)),
    flags: take(p, 1),
    zoneBits: take(p * zoneBytes, 1),
    indexFirstHash: u32(l),
    indexLengths: u32(l),
    indexCrcs: u32(l),
  };
  return { header, meta, tables, body: bytes.slice(header.dataStart) };
}

function rootBytes(metaJson: string, t: Tables): Uint8Array {
  const json = encodeUtf8(metaJson);
  const parts: Uint8Array[] = [
    t.lengths,
    t.crcs,
    t.counts,
    t.boxes,
    ...t.max,
    t.flags,
    t.zoneBits,
    t.indexFirstHash,
    t.indexLengths,
    t.indexCrcs,
  ].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  let size = 4 + json.length;
  for (const p of parts) size = ((size + 3) & ~3) + p.length;
  const out = new Uint8Array(align8(size));
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  let at = 4 + json.length;
  for (const p of parts) {
    at = (at + 3) & ~3;
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The pack put back: root and header rewritten with their checksums; `header` fields given override what the parts
 * imply (so a test can make the header lie), and `metaJson` replaces the metadata's JSON text.
 */
export function putTogether(c: Crafted, opts: { header?: Partial<Header>; metaJson?: string } = {}): Uint8Array {
  const root = rootBytes(opts.metaJson ?? JSON.stringify(c.meta), c.tables);
  const dataStart = align8(HEADER_BYTES + root.length);
  const header: Header = {
    ...c.header,
    rootLength: root.length,
    rootCrc: crc32(root),
    dataStart,
    objectLength: dataStart + c.body.length,
    ...opts.header,
  };
  const out = new Uint8Array(dataStart + c.body.length);
  out.set(writeHeader(header), 0);
  out.set(root, HEADER_BYTES);
  out.set(c.body, dataStart);
  return out;
}

/** Where page `i` starts in the body (pages follow one another from the body's first byte). */
export function pageStart(c: Crafted, i: number): number {
  let at = 0;
  for (let k = 0; k < i; k++) at += c.tables.lengths[k] as number;
  return at;
}

/** Writes `value` (u32 or i32, little-endian) at `field` bytes into page `i`, then re-seals its checksum in page and root. */
export function setPageField(c: Crafted, i: number, field: number, value: number, signed = false): void {
  const start = pageStart(c, i);
  const page = c.body.subarray(start, start + (c.tables.lengths[i] as number));
  const v = new DataView(page.buffer, page.byteOffset, page.byteLength);
  if (signed) v.setInt32(field, value, true);
  else v.setUint32(field, value >>> 0, true);
  const crc = crc32(page.subarray(8));
  v.setUint32(4, crc, true);
  c.tables.crcs[i] = crc;
}

/** Where lot-id index page `i` starts in the body (after every data page). */
export function indexStart(c: Crafted, i: number): number {
  let at = pageStart(c, c.header.pageCount);
  for (let k = 0; k < i; k++) at += c.tables.indexLengths[k] as number;
  return at;
}
