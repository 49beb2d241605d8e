// The root index: metadata JSON, then per page its length, crc32, count, box and search summaries, then the lot-id index's pages.
import { crc32 } from "../crc32.ts";
import { ByteWriter, decodeUtf8, encodeUtf8 } from "./bytes.ts";
import { PagedPackError } from "./errors.ts";
import { checkLayerPages, checkRootMeta } from "./root-schema.ts";
import type { Header, RootMeta } from "./schema.ts";
import { align8, MAX_PART_BYTES, PAGE_HEADER_BYTES, UNITS_PER_DEGREE } from "./schema.ts";

export type PageEntry = {
  length: number;
  crc: number;
  count: number;
  // Quantised box [minX, minY, maxX, maxY] in 1e-7 degrees.
  box: [number, number, number, number];
  max: number[];
  flags: number;
  zones: Set<number>;
};

export type IndexEntry = { firstHash: number; length: number; crc: number };

export type Root = {
  meta: RootMeta;
  pageCount: number;
  // Byte offset of each page in the object, pageCount+1 entries (the last is where the lot-id index starts).
  pageOffsets: Float64Array;
  pageCrcs: Uint32Array;
  pageCounts: Uint32Array;
  // Boxes in degrees, 4 per page.
  pageBoxes: Float64Array;
  // One float32 array per summary.max column.
  pageMax: Float32Array[];
  pageFlags: Uint8Array;
  // ceil(zoneDict.length / 8) bytes per page.
  zoneBits: Uint8Array;
  zoneBytes: number;
  indexFirstHash: Uint32Array;
  indexOffsets: Float64Array;
  indexCrcs: Uint32Array;
  // Byte offset of each overview page, pages+1 entries (the last is where the stored tiles start).
  overviewOffsets: Float64Array;
  // Byte offset of each stored tile (meta.tiles.list), tiles+1 entries (the last is the object's end).
  tileOffsets: Float64Array;
  // A stored tile's place in meta.tiles.list by tileKey.
  storedTiles: Map<number, number>;
};

/** One number per tile of any zoom up to 22 (x and y below 2^z). */
export function tileKey(z: number, x: number, y: number): number {
  return (4 ** z - 1) / 3 + y * 2 ** z + x;
}

function typed(w: ByteWriter, a: Uint32Array | Int32Array | Float32Array | Uint8Array): void {
  w.align(4);
  w.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

export function encodeRoot(meta: RootMeta, pages: readonly PageEntry[], index: readonly IndexEntry[]): Uint8Array {
  const w = new ByteWriter(16 * 1024);
  const json = encodeUtf8(JSON.stringify(meta));
  w.u32(json.length);
  w.bytes(json);
  const p = pages.length;
  typed(
    w,
    Uint32Array.from(pages, (e) => e.length),
  );
  typed(
    w,
    Uint32Array.from(pages, (e) => e.crc),
  );
  typed(
    w,
    Uint32Array.from(pages, (e) => e.count),
  );
  typed(w, Int32Array.from(pages.flatMap((e) => e.box)));
  for (let m = 0; m < meta.summary.max.length; m++)
    typed(
      w,
      Float32Array.from(pages, (e) => e.max[m] ?? Number.NaN),
    );
  typed(
    w,
    Uint8Array.from(pages, (e) => e.flags),
  );
  const zb = Math.ceil(meta.zoneDict.length / 8);
  const bits = new Uint8Array(p * zb);
  pages.forEach((e, i) => {
    for (const z of e.zones) bits[i * zb + (z >> 3)] = (bits[i * zb + (z >> 3)] as number) | (1 << (z & 7));
  });
  typed(w, bits);
  typed(
    w,
    Uint32Array.from(index, (e) => e.firstHash),
  );
  typed(
    w,
    Uint32Array.from(index, (e) => e.length),
  );
  typed(
    w,
    Uint32Array.from(index, (e) => e.crc),
  );
  w.align(8);
  return w.finish();
}

/**
 * The fewest bytes a data page of `count` features can take: its header and section table, a flatbush of at least
 * 10 bytes an item (a u16 box and an index) after its 8-byte header, and a byte of geometry a feature.
 */
export function minPageBytes(columns: number, count: number): number {
  return PAGE_HEADER_BYTES + 8 * (2 + columns) + 8 + 11 * count;
}
// A lot-id index page of one entry: its 16-byte header and 6 bytes, padded to 8.
const MIN_INDEX_PAGE_BYTES = 24;
const MAX_Q_LON = 180 * UNITS_PER_DEGREE;
const MAX_Q_LAT = 90 * UNITS_PER_DEGREE;

/** Decodes the root, refusing (PagedPackError) any field, count, length or offset the object cannot hold. */
export function decodeRoot(bytes: Uint8Array, h: Header, key: string): Root {
  try {
    return decodeCheckedRoot(bytes, h, key);
  } catch (e) {
    // Whatever a crafted root trips on below is a refusal of this pack, never a TypeError.
    if (e instanceof PagedPackError) throw e;
    throw new PagedPackError(key, `pack ${key}: root index refused (${e instanceof Error ? e.message : String(e)})`);
  }
}

function decodeCheckedRoot(bytes: Uint8Array, h: Header, key: string): Root {
  const refuse = (why: string) => new PagedPackError(key, `pack ${key}: root index refused: ${why}`);
  const got = crc32(bytes);
  if (got !== h.rootCrc) {
    throw new PagedPackError(
      key,
      `pack ${key}: root index checksum mismatch (crc32 ${got.toString(16)}, header says ${h.rootCrc.toString(16)})`,
    );
  }
  // A private copy so every typed view below is aligned and independent of the read's buffer.
  const b = bytes.slice();
  if (b.length < 4) throw refuse(`only ${b.length} bytes`);
  const v = new DataView(b.buffer);
  const jl = v.getUint32(0, true);
  if (jl > b.length - 4) throw refuse(`metadata of ${jl} bytes in a root of ${b.length}`);
  let raw: unknown;
  try {
    raw = JSON.parse(decodeUtf8(b.subarray(4, 4 + jl)));
  } catch {
    throw refuse("metadata is not JSON");
  }
  const checked = checkRootMeta(raw);
  if ("problem" in checked) throw refuse(checked.problem);
  const { meta } = checked;
  let at = 4 + jl;
  const take = <T>(make: (buf: ArrayBuffer, off: number, n: number) => T, n: number, width: number): T => {
    at = (at + 3) & ~3;
    if (at + n * width > b.length) throw refuse("it is shorter than its page count implies");
    const out = make(b.buffer, at, n);
    at += n * width;
    return out;
  };
  const p = h.pageCount;
  const l = h.indexPageCount;
  const u32 = (n: number): Uint32Array => take((buf, o, k) => new Uint32Array(buf, o, k), n, 4);
  const lengths = u32(p);
  const pageCrcs = u32(p);
  const pageCounts = u32(p);
  const qbox = take((buf, o, k) => new Int32Array(buf, o, k), 4 * p, 4);
  const pageMax = meta.summary.max.map(() => take((buf, o, k) => new Float32Array(buf, o, k), p, 4));
  const pageFlags = take((buf, o, k) => new Uint8Array(buf, o, k), p, 1);
  const zoneBytes = Math.ceil(meta.zoneDict.length / 8);
  const zoneBits = take((buf, o, k) => new Uint8Array(buf, o, k), p * zoneBytes, 1);
  const indexFirstHash = u32(l);
  const indexLengths = u32(l);
  const indexCrcs = u32(l);
  if (align8(at) !== b.length) throw refuse(`${b.length - at} bytes after its last table`);

  // Every part's length within its bounds and every offset within the object, checked as they are laid out.
  const end = h.objectLength;
  const place = (offsets: Float64Array, i: number, len: number, what: string, min: number): void => {
    if (len < min || len > MAX_PART_BYTES)
      throw refuse(`${what} is ${len} bytes (at least ${min}, at most ${MAX_PART_BYTES})`);
    const next = (offsets[i] as number) + len;
    if (next > end) throw refuse(`${what} ends at byte ${next}, past the object's ${end}`);
    offsets[i + 1] = next;
  };
  const pageOffsets = new Float64Array(p + 1);
  pageOffsets[0] = h.dataStart;
  let features = 0;
  for (let i = 0; i < p; i++) {
    const count = pageCounts[i] as number;
    if (count === 0) throw refuse(`page ${i} holds no feature`);
    features += count;
    place(pageOffsets, i, lengths[i] as number, `page ${i}`, minPageBytes(meta.columns.length, count));
    const x0 = qbox[4 * i] as number;
    const y0 = qbox[4 * i + 1] as number;
    const x1 = qbox[4 * i + 2] as number;
    const y1 = qbox[4 * i + 3] as number;
    if (!(x0 <= x1 && y0 <= y1 && x0 >= -MAX_Q_LON && x1 <= MAX_Q_LON && y0 >= -MAX_Q_LAT && y1 <= MAX_Q_LAT)) {
      throw refuse(`page ${i}'s box [${x0}, ${y0}, ${x1}, ${y1}] is not a box on Earth`);
    }
  }
  if (features !== h.featureCount) throw refuse(`pages hold ${features} features, header says ${h.featureCount}`);
  const layers = checkLayerPages(meta, pageCounts);
  if (layers !== null) throw refuse(layers);
  const indexOffsets = new Float64Array(l + 1);
  indexOffsets[0] = pageOffsets[p] as number;
  for (let i = 0; i < l; i++) {
    if (i > 0 && (indexFirstHash[i] as number) < (indexFirstHash[i - 1] as number)) {
      throw refuse(`lot-id index page ${i} starts below page ${i - 1}`);
    }
    place(indexOffsets, i, indexLengths[i] as number, `lot-id index page ${i}`, MIN_INDEX_PAGE_BYTES);
  }
  const ov = meta.overview?.pages ?? [];
  const overviewOffsets = new Float64Array(ov.length + 1);
  overviewOffsets[0] = indexOffsets[l] as number;
  ov.forEach((o, i) => {
    place(overviewOffsets, i, o.length, `overview page ${i}`, 16);
  });
  const stored = meta.tiles?.list ?? [];
  const tileOffsets = new Float64Array(stored.length + 1);
  tileOffsets[0] = overviewOffsets[ov.length] as number;
  const storedTiles = new Map<number, number>();
  stored.forEach(([z, x, y, length], i) => {
    place(tileOffsets, i, length, `stored tile ${z}/${x}/${y}`, 0);
    storedTiles.set(tileKey(z, x, y), i);
  });
  if ((tileOffsets[stored.length] as number) !== h.objectLength) {
    throw new PagedPackError(
      key,
      `pack ${key}: root index accounts for ${tileOffsets[stored.length]} bytes, header says ${h.objectLength}`,
    );
  }
  const pageBoxes = Float64Array.from(qbox, (q) => q / UNITS_PER_DEGREE);
  return {
    meta,
    pageCount: p,
    pageOffsets,
    pageCrcs,
    pageCounts,
    pageBoxes,
    pageMax,
    pageFlags,
    zoneBits,
    zoneBytes,
    indexFirstHash,
    indexOffsets,
    indexCrcs,
    overviewOffsets,
    tileOffsets,
    storedTiles,
  };
}

/** The root's page entries as the encoder wrote them, to write the root again with other metadata. */
export function pageEntriesOf(root: Root): PageEntry[] {
  const pages: PageEntry[] = [];
  for (let i = 0; i < root.pageCount; i++) {
    const zones = new Set<number>();
    for (let z = 0; z < root.meta.zoneDict.length; z++) if (pageHasZone(root, i, z)) zones.add(z);
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
  return pages;
}

/** The root's lot-id index entries, as pageEntriesOf gives its pages. */
export function indexEntriesOf(root: Root): IndexEntry[] {
  return Array.from(root.indexFirstHash, (firstHash, i) => ({
    firstHash,
    length: (root.indexOffsets[i + 1] as number) - (root.indexOffsets[i] as number),
    crc: root.indexCrcs[i] as number,
  }));
}

/** Whether page `i` holds any feature of zone code `z` (an index into meta.zoneDict). */
export function pageHasZone(root: Root, i: number, z: number): boolean {
  return (((root.zoneBits[i * root.zoneBytes + (z >> 3)] as number) >> (z & 7)) & 1) === 1;
}
