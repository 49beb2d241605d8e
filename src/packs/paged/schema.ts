// The v2 pack's header fields, column schema and root metadata, shared by the encoder and the reader.
import type { BBox } from "../../geo/bbox.ts";
import type { LayerKind, PackMeta, UploadInfo } from "../pack-meta.ts";
import { provenanceOf } from "../provenance.ts";
import { PagedPackError } from "./errors.ts";
import type { OverviewMeta } from "./overview.ts";

export const MAGIC = "GAPK";
export const FORMAT_VERSION = 2;
export const HEADER_BYTES = 64;
// 1e-7 degrees is about 1.1 cm of latitude: coordinates are stored as integers of this unit.
export const UNITS_PER_DEGREE = 10_000_000;
export const PAGE_MAGIC = "GAPG";
export const INDEX_MAGIC = "GAPI";
export const PAGE_HEADER_BYTES = 40;
export const INDEX_HEADER_BYTES = 16;
// The lot-id index names pages in 16 bits.
export const MAX_PAGES = 0xffff;
// A page, lot-id index page, overview page or stored tile: far above what the builder writes (~128 KiB a page).
export const MAX_PART_BYTES = 16 * 1024 * 1024;
// A root of 15 million lots is under 1 MiB.
export const MAX_ROOT_BYTES = 16 * 1024 * 1024;
// The first range a reader asks for: the header and the whole root for packs up to ~5M lots (5,600 pages, 245 KiB).
export const INITIAL_READ_BYTES = 256 * 1024;

/**
 * dict: strings, dictionary-encoded per page (u8 or u16 codes, 0 = null);
 * text: unique strings (length+1 varint, 0 = null, then UTF-8);
 * f32: float32 (NaN = null); u8/u16/u32: unsigned integers of value*scale (the type's maximum = null);
 * json: any JSON value (negative numbers, booleans, mixed types, objects), stored as its JSON text, coded as text.
 */
export type ColumnType = "dict" | "text" | "f32" | "u8" | "u16" | "u32" | "json";
export type ColumnSpec = { name: string; type: ColumnType; scale?: number };
// A json column's Value is the value's JSON text (what the encoder takes and pageValue gives; pageProp parses it).
export type Value = number | string | null;

export type SummarySpec = {
  // A dict column whose values the root records per page as a bitset over a pack-wide dictionary.
  zone: string | null;
  // Numeric columns whose per-page maximum the root keeps (float32).
  max: string[];
  // Up to 8 numeric columns: bit i of a page's flags is set when any feature has column i > 0.
  flags: string[];
};

export type RootMeta = {
  id: string;
  version: string;
  bbox: BBox;
  unitsPerDegree: number;
  columns: ColumnSpec[];
  lotIdColumn: string | null;
  summary: SummarySpec;
  zoneDict: string[];
  // Each source layer's "as at" date (ISO), per pack rather than per lot.
  asAt: Record<string, string>;
  info: Record<string, string>;
  // Generalised zoning for low zooms (packs with a zone column; absent in older v2 packs).
  overview?: OverviewMeta;
  // Lots tiles stored whole, after the overview pages (absent when every tile's pages are read within its bound).
  tiles?: StoredTilesMeta;
  // The pack's layers, each over a run of pages; absent: one polygon layer "parcels" over every page (a lots pack).
  layers?: LayerMeta[];
  // Who uploaded the pack and from what file (an organisation's pack); its title and licence are in `info`.
  upload?: UploadInfo;
};

/**
 * One layer of a v2 pack: its features fill pages [pages[0], pages[1]) (layers follow one another, in order, each
 * Hilbert-sorted within itself); `fields` name the columns that are its properties, in order (other layers' columns
 * are null on its pages). As v1's LayerInfo: syntheticCount is every feature of a synthetic layer, else those whose
 * syntheticField is true.
 */
export type LayerMeta = {
  name: string;
  kind: LayerKind;
  pages: [number, number];
  count: number;
  bbox: BBox;
  fields: string[];
  categoryField: string | null;
  synthetic: boolean;
  syntheticField: string | null;
  syntheticCount: number;
};

/** The pack's title, attribution, licence, note (from `info`, as lots packs have kept them) and upload. */
export function packMetaOf(meta: RootMeta): PackMeta {
  const { info } = meta;
  const provenance = provenanceOf(info);
  return {
    title: info.title ?? meta.id,
    attribution: info.attribution ?? "",
    licence: info.licence ?? "",
    ...(info.note ? { note: info.note } : {}),
    ...(meta.upload ? { upload: meta.upload } : {}),
    ...(provenance.length > 0 ? { provenance } : {}),
  };
}

/**
 * The tiles whose pages the reader could not fetch in `maxReads` range requests (each at most `maxReadBytes`) with at
 * most `maxGapBytes` read through between them (pages far apart on the Hilbert curve), or more than `maxPages` pages:
 * each stored whole, one request to serve.
 */
export type StoredTilesMeta = {
  maxReads: number;
  maxReadBytes: number;
  maxGapBytes: number;
  maxPages: number;
  // [z, x, y, length, crc32] in the order their bytes follow; length 0 is a tile with nothing to draw.
  list: [number, number, number, number, number][];
};

export type Header = {
  version: number;
  rootLength: number;
  rootCrc: number;
  dataStart: number;
  pageCount: number;
  featureCount: number;
  indexPageCount: number;
  objectLength: number;
};

export const NULL_INT: Record<"u8" | "u16" | "u32", number> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

export function align8(n: number): number {
  return (n + 7) & ~7;
}

export function writeHeader(h: Header): Uint8Array {
  const b = new Uint8Array(HEADER_BYTES);
  const v = new DataView(b.buffer);
  for (let i = 0; i < 4; i++) b[i] = MAGIC.charCodeAt(i);
  v.setUint16(4, h.version, true);
  v.setUint16(6, HEADER_BYTES, true);
  v.setUint32(8, h.rootLength, true);
  v.setUint32(12, h.rootCrc, true);
  v.setUint32(16, h.dataStart, true);
  v.setUint32(20, h.pageCount, true);
  v.setUint32(24, h.featureCount, true);
  v.setUint32(28, h.indexPageCount, true);
  v.setFloat64(32, h.objectLength, true);
  v.setUint32(40, UNITS_PER_DEGREE, true);
  return b;
}

/** Parses the fixed header, refusing anything but a v2 pack whose sizes agree, with a sentence. */
export function readHeader(b: Uint8Array, key: string): Header {
  const refuse = (why: string) => new PagedPackError(key, `pack ${key}${why}`);
  if (b.length < HEADER_BYTES) throw refuse(` is truncated: ${b.length} bytes, less than its header`);
  const magic = String.fromCharCode(b[0] as number, b[1] as number, b[2] as number, b[3] as number);
  if (magic !== MAGIC) throw refuse(` is not a pack (magic "${magic}", expected "${MAGIC}")`);
  const v = new DataView(b.buffer, b.byteOffset, HEADER_BYTES);
  const version = v.getUint16(4, true);
  if (version !== FORMAT_VERSION) throw refuse(`: expected pack format v2, got v${version}`);
  const units = v.getUint32(40, true);
  if (units !== UNITS_PER_DEGREE) throw refuse(`: unsupported quantisation ${units} units per degree`);
  const h: Header = {
    version,
    rootLength: v.getUint32(8, true),
    rootCrc: v.getUint32(12, true),
    dataStart: v.getUint32(16, true),
    pageCount: v.getUint32(20, true),
    featureCount: v.getUint32(24, true),
    indexPageCount: v.getUint32(28, true),
    objectLength: v.getFloat64(32, true),
  };
  if (h.rootLength < 4 || h.rootLength > MAX_ROOT_BYTES) throw refuse(`: root index of ${h.rootLength} bytes`);
  if (h.dataStart !== align8(HEADER_BYTES + h.rootLength)) {
    throw refuse(`: pages start at ${h.dataStart}, not after the root index (${align8(HEADER_BYTES + h.rootLength)})`);
  }
  if (!Number.isSafeInteger(h.objectLength) || h.objectLength < h.dataStart) {
    throw refuse(`: header says ${h.objectLength} bytes, less than its header and root index`);
  }
  if (h.pageCount > MAX_PAGES) throw refuse(`: ${h.pageCount} pages, more than ${MAX_PAGES}`);
  // Each page holds at least one feature, and each lot-id index page at least one entry (24 bytes).
  if (h.featureCount < h.pageCount) throw refuse(`: ${h.featureCount} features over ${h.pageCount} pages`);
  if (h.indexPageCount > (h.objectLength - h.dataStart) / 24) {
    throw refuse(`: ${h.indexPageCount} lot-id index pages cannot fit ${h.objectLength - h.dataStart} bytes`);
  }
  return h;
}

// FNV-1a over the UTF-8 bytes of a normalised lot id: the lot-id index's key.
export function lotIdHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    // Lot ids are ASCII; wider code units still hash deterministically.
    h = Math.imul(h ^ (c & 0xff), 0x01000193);
    if (c > 0xff) h = Math.imul(h ^ (c >>> 8), 0x01000193);
  }
  return h >>> 0;
}
