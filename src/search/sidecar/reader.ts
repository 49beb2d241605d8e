// Reads a search sidecar by range: its head once per object version, then only the blocks a search needs, merged
// into few reads, decoded into facts tables the engine tests as it tests pages.
import { ByteLru } from "../../packs/byte-lru.ts";
import type { Root, Source } from "../../packs/paged/index.ts";
import { type Coded, type FactsTable, VALUE_BYTES_PER_LOT, type ValueColumns } from "../facts-table.ts";
import { fromSortableBits, unpackBits } from "./bits.ts";
import {
  BITS,
  type BlockEntry,
  type ColumnCode,
  COLUMNS,
  type ColumnName,
  packIdentity,
  pageOfRow,
  FIRST_VALUE_COLUMN,
  SCALED,
  SIDECAR_MAGIC,
  SIDECAR_READABLE,
  SIDECAR_VERSION,
  type SidecarHead,
  SPARSE,
  VALUE_COLUMNS,
} from "./format.ts";

/** The columns a search reads, and a key naming them. */
export type Need = { has(name: ColumnName): boolean; key: string };

/** A block as a facts table, with each lot's row in the pack, its page there, and its rank by lot key. */
export type BlockTable = { b: number; t: FactsTable; row: Uint32Array; rank: Uint32Array; page: Uint32Array };

// Decoded blocks kept per isolate: a search's blocks stay warm for the next when they all fit (a suburb's; a block of
// 4,096 lots is about 250 KB decoded).
export const SIDECAR_CACHE_BYTES = 8 * 1024 * 1024;
const blockCache = new ByteLru<BlockTable>(SIDECAR_CACHE_BYTES, Number.POSITIVE_INFINITY);
// Blocks a gap of at most this many bytes apart are read in one range: a read costs more than the bytes between.
const MERGE_GAP = 64 * 1024;
// A run stops growing here (unless the ranges allowed force more): two in flight hold 8 MiB, not the region.
const MAX_RUN_BYTES = 4 * 1024 * 1024;
// The first read of a head: a 1.5M-lot pack's (about 600 KB) fits; the rest is read once when not.
const HEAD_READ = 1024 * 1024;

export function clearSidecarBlocks(): void {
  for (const k of blockCache.keys()) blockCache.delete(k);
}

export class Sidecar {
  readonly source: Source;
  readonly etag: string;
  readonly head: SidecarHead;
  private readonly start: number;
  /** Reads made and bytes read by this reader (the bench's figures). */
  reads = 0;
  bytesRead = 0;
  // Per page, the blocks holding its lots (from the blocks' page runs), found once.
  private byPage: number[][] | null = null;

  constructor(source: Source, etag: string, head: SidecarHead, start: number) {
    this.source = source;
    this.etag = etag;
    this.head = head;
    this.start = start;
  }

  /** The sidecar at `source`; a foreign or damaged object is an Error naming it. */
  static async open(source: Source): Promise<Sidecar> {
    const first = await source.getBytes(0, HEAD_READ);
    const bad = (why: string) => new Error(`search sidecar ${source.key}: ${why}`);
    if (first.data.length < 8) throw bad("too short");
    const v = new DataView(first.data.buffer, first.data.byteOffset, first.data.byteLength);
    if (v.getUint32(0, true) !== SIDECAR_MAGIC) throw bad("not a search sidecar");
    const len = v.getUint32(4, true);
    let bytes = first.data;
    if (8 + len > bytes.length) {
      const rest = await source.getBytes(bytes.length, 8 + len - bytes.length, undefined, first.etag);
      const all = new Uint8Array(8 + len);
      all.set(bytes);
      all.set(rest.data, bytes.length);
      bytes = all;
    }
    const head = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len))) as SidecarHead;
    if (!SIDECAR_READABLE.includes(head.v) || head.columns.join() !== COLUMNS.join())
      throw bad(`got v${head.v} data when expected v${SIDECAR_VERSION}: rebuild it (scripts/pack/search-sidecar.ts)`);
    return new Sidecar(source, first.etag, head, Math.ceil((8 + len) / 8) * 8);
  }

  /** True when this sidecar was built from the pack version of `root`. */
  matches(root: Root): boolean {
    return this.head.identity === packIdentity(root);
  }

  /** Lots these blocks hold. */
  rowsOf(blocks: readonly number[]): number {
    return blocks.reduce((n, b) => n + (this.head.blocks[b] as BlockEntry).rows, 0);
  }

  /** Bytes these blocks hold decoded (as the block cache counts them), for a search reading `need`. */
  decodedBytes(blocks: readonly number[], need: Need): number {
    const value = readsValue(need);
    return blocks.reduce((n, b) => n + decodedBytes((this.head.blocks[b] as BlockEntry).rows, value), 0);
  }

  /** The blocks holding lots of these pages. */
  blocksOfPages(pages: readonly number[]): Set<number> {
    if (!this.byPage) {
      const byPage: number[][] = Array.from({ length: this.head.pageStarts.length - 1 }, () => []);
      this.head.blocks.forEach((e, b) => {
        for (let k = 0; k < e.pages.length; k += 2) {
          const from = e.pages[k] as number;
          for (let p = from; p < from + (e.pages[k + 1] as number); p++) byPage[p]?.push(b);
        }
      });
      this.byPage = byPage;
    }
    const out = new Set<number>();
    for (const p of pages) for (const b of this.byPage[p] ?? []) out.add(b);
    return out;
  }

  /** The runs blocks are read in: adjacent ones merged, then the nearest merged until at most `maxRanges`. */
  runsOf(blocks: readonly number[], maxRanges: number): number[][] {
    const sorted = [...blocks].sort((a, b) => a - b);
    const runs: number[][] = [];
    const gap = (a: number, b: number) =>
      (this.head.blocks[b] as BlockEntry).o -
      ((this.head.blocks[a] as BlockEntry).o + (this.head.blocks[a] as BlockEntry).n);
    for (const b of sorted) {
      const last = runs[runs.length - 1];
      if (
        last &&
        gap(last[last.length - 1] as number, b) <= MERGE_GAP &&
        this.runBytes([...last, b]) <= MAX_RUN_BYTES
      ) {
        last.push(b);
      } else runs.push([b]);
    }
    while (runs.length > Math.max(1, maxRanges)) {
      let best = 0;
      for (let k = 1; k + 1 < runs.length; k++) {
        const g = (r: number) =>
          gap(
            (runs[r] as number[])[(runs[r] as number[]).length - 1] as number,
            (runs[r + 1] as number[])[0] as number,
          );
        if (g(k) < g(best)) best = k;
      }
      runs.splice(best, 2, [...(runs[best] as number[]), ...(runs[best + 1] as number[])]);
    }
    return runs;
  }

  /** Bytes a run reads (the gaps between its blocks too; the value figures' range as well when `need` reads them). */
  runBytes(run: readonly number[], need?: Need): number {
    const a = this.head.blocks[run[0] as number] as BlockEntry;
    const z = this.head.blocks[run[run.length - 1] as number] as BlockEntry;
    return z.o + z.n - a.o + (need !== undefined && readsValue(need) ? z.vo + z.vn - a.vo : 0);
  }

  // A block decoded for some columns serves searches needing those columns (the key names them).
  private cacheKey(b: number, need: Need): string {
    return `${this.source.key}\u0000${this.etag}\u0000${b}\u0000${need.key}`;
  }

  /** A block already decoded in this isolate with these columns. */
  cached(b: number, need: Need): BlockTable | undefined {
    return blockCache.get(this.cacheKey(b, need));
  }

  /** Reads one run's blocks; each is decoded (the columns a search needs) only when taken, one in hand at a time. */
  async readRun(run: readonly number[], keep: boolean, need: Need): Promise<(() => BlockTable)[]> {
    const a = this.head.blocks[run[0] as number] as BlockEntry;
    const z = this.head.blocks[run[run.length - 1] as number] as BlockEntry;
    const value = readsValue(need);
    // The value figures are a second range, read beside the first only by a search sorted by value.
    const [got, figures] = await Promise.all([
      this.source.getBytes(this.start + a.o, this.runBytes(run), undefined, this.etag),
      value ? this.source.getBytes(this.start + a.vo, z.vo + z.vn - a.vo, undefined, this.etag) : null,
    ]);
    this.reads += value ? 2 : 1;
    this.bytesRead += got.data.length + (figures?.data.length ?? 0);
    const main = wordsOf(got.data);
    const extra = figures ? wordsOf(figures.data) : null;
    return run.map((b) => () => {
      const e = this.head.blocks[b] as BlockEntry;
      // Blocks are whole words from a word-aligned start: each is a view of its range, no copy.
      const words = main.subarray((e.o - a.o) / 4, (e.o - a.o + e.n) / 4);
      const valueWords = extra ? extra.subarray((e.vo - a.vo) / 4, (e.vo - a.vo + e.vn) / 4) : null;
      const table = this.decode(b, words, valueWords, need);
      if (keep) blockCache.set(this.cacheKey(b, need), table, table.t.bytes);
      return table;
    });
  }

  /** Block `b` from its words (and its value figures' when `need` reads them), unpacked into a facts table. */
  decode(b: number, words: Uint32Array, valueWords: Uint32Array | null, need: Need): BlockTable {
    const e = this.head.blocks[b] as BlockEntry;
    const n = e.rows;
    const value = readsValue(need);
    if (words.length * 4 !== e.n || (value && (valueWords?.length ?? 0) * 4 !== e.vn))
      throw new Error(`search sidecar ${this.source.key}: block ${b} is not the ${e.n} bytes its entry says`);
    const raw = new Uint32Array(n);
    const { dicts, pageStarts, frames } = this.head;
    // A column this search never tests reads as none, from one shared array (a block's table is never written).
    const f32 = (name: ColumnName) => (need.has(name) ? new Float32Array(n) : idle(n, "nan"));
    const u16 = (name: ColumnName) => (need.has(name) ? new Uint16Array(n) : idle(n, "u16"));
    const codedOf = (name: ColumnName, names: string[]): Coded => ({ codes: u16(name), names: [null, ...names] });
    const zone = codedOf("zone", dicts.zone);
    const suburb = codedOf("suburb", dicts.suburb);
    const lga = codedOf("lga", dicts.lga);
    const t: FactsTable = {
      packId: this.head.packId,
      own: false,
      count: n,
      x0: 0,
      y0: 0,
      x: new Float32Array(n),
      y: new Float32Array(n),
      area: f32("area"),
      fsr: f32("fsr"),
      height: f32("height"),
      minLot: f32("minLot"),
      flood: u16("flood"),
      bushfire: u16("bushfire"),
      heritage: u16("heritage"),
      heritageKind: need.has("heritageKind") ? new Uint8Array(n) : idle(n, "u8"),
      stationM: f32("stationM"),
      zone,
      station: { codes: idle(n, "u16"), names: [null] },
      suburb,
      lga,
      // Lot ids and addresses stay in the pages: a result's are read from its page.
      lotId: [],
      address: null,
      demo: idle(n, "u8"),
      bytes: decodedBytes(n, false),
    };
    const figures: ValueColumns | undefined = value
      ? {
          basis: new Uint8Array(n),
          dwellings: new Float32Array(n),
          gfa: new Float32Array(n),
          existingKind: new Uint8Array(n),
          existingDwellings: new Float32Array(n),
          existingUnits: new Float32Array(n),
          existingFloor: new Float32Array(n),
        }
      : undefined;
    const rank = new Uint32Array(n);
    const row = new Uint32Array(n);
    // Where each column lands; none for the value figures without a value sort.
    const into: Record<ColumnName, Column | undefined> = {
      area: t.area,
      fsr: t.fsr,
      height: t.height,
      minLot: t.minLot,
      stationM: t.stationM,
      x: t.x,
      y: t.y,
      flood: t.flood,
      bushfire: t.bushfire,
      heritage: t.heritage,
      heritageKind: t.heritageKind,
      zone: zone.codes,
      suburb: suburb.codes,
      lga: lga.codes,
      rank,
      row,
      basis: figures?.basis,
      dwellings: figures?.dwellings,
      gfa: figures?.gfa,
      existingKind: figures?.existingKind,
      existingDwellings: figures?.existingDwellings,
      existingUnits: figures?.existingUnits,
      existingFloor: figures?.existingFloor,
    };
    let w = 0;
    COLUMNS.forEach((name, c) => {
      const code = e.c[c] as ColumnCode;
      const [kind, scale, , width] = code;
      const size = kind === SPARSE ? Math.ceil(n / 32) + Math.ceil((scale * width) / 32) : Math.ceil((n * width) / 32);
      // The value figures' words start again at their own region.
      if (c === FIRST_VALUE_COLUMN) w = 0;
      const from = c < FIRST_VALUE_COLUMN ? words : valueWords;
      const out = into[name];
      // A lot's pack row is always read: it names the lot's page and index.
      if (out && from && (need.has(name) || name === "row"))
        unpackColumn(from.subarray(w, w + size), n, code, out, raw);
      w += size;
    });
    const page = new Uint32Array(n);
    const lon = new Float64Array(n);
    const lat = new Float64Array(n);
    let p = 0;
    for (let i = 0; i < n; i++) {
      const r = row[i] as number;
      // Rows go up within a zone: the page changes rarely, and is then found by halves.
      if (r < (pageStarts[p] as number) || r >= (pageStarts[p + 1] as number)) p = pageOfRow(pageStarts, r);
      page[i] = p;
      // As the page's table places it: its frame's origin plus the float32 offset.
      lon[i] = (frames[p * 2] as number) + (t.x[i] as number);
      lat[i] = (frames[p * 2 + 1] as number) + (t.y[i] as number);
    }
    t.lon = lon;
    t.lat = lat;
    if (figures) {
      t.value = figures;
      t.bytes = decodedBytes(n, true);
    }
    return { b, t, row, rank, page };
  }
}

// A decoded block's bytes as the cache counts them: its columns, with the value figures when read.
const decodedBytes = (rows: number, value: boolean): number => 256 + rows * (60 + (value ? VALUE_BYTES_PER_LOT : 0));

// A range's bytes as words: a fresh read starts aligned; else (a shared buffer) copied once.
const wordsOf = (d: Uint8Array): Uint32Array =>
  d.byteOffset % 4 === 0
    ? new Uint32Array(d.buffer, d.byteOffset, d.byteLength >>> 2)
    : new Uint32Array(d.slice().buffer);

// One array of none per size and kind, shared by every block's untested columns.
const idleArrays = new Map<string, Float32Array | Uint16Array | Uint8Array>();
function idle(n: number, kind: "nan"): Float32Array;
function idle(n: number, kind: "u16"): Uint16Array;
function idle(n: number, kind: "u8"): Uint8Array;
function idle(n: number, kind: "nan" | "u16" | "u8"): Float32Array | Uint16Array | Uint8Array {
  const key = `${kind}:${n}`;
  let a = idleArrays.get(key);
  if (!a) {
    a = kind === "nan" ? new Float32Array(n).fill(Number.NaN) : kind === "u16" ? new Uint16Array(n) : new Uint8Array(n);
    idleArrays.set(key, a);
  }
  return a;
}

// One column's words into `out`, a loop per coding (none stored as NaN: 0 in an int array, as it always read).
function unpackColumn(at: Uint32Array, n: number, code: ColumnCode, out: Column, raw: Uint32Array): void {
  const [kind, scale, base, width, none] = code;
  if (kind === SPARSE) {
    const mapWords = Math.ceil(n / 32);
    unpackBits(at.subarray(mapWords), width, scale, raw);
    let k = 0;
    for (let i = 0; i < n; i++) if (((at[i >>> 5] as number) >>> (i & 31)) & 1) out[i] = base + (raw[k++] as number);
    return;
  }
  unpackBits(at, width, n, raw);
  const noneCode = none === 1 ? (width === 32 ? 0xffffffff : 2 ** width - 1) : -1;
  if (kind === SCALED) {
    for (let i = 0; i < n; i++) {
      const r = raw[i] as number;
      out[i] = r === noneCode ? Number.NaN : (base + r) / scale;
    }
  } else if (kind === BITS) {
    for (let i = 0; i < n; i++) {
      const r = raw[i] as number;
      out[i] = r === noneCode ? Number.NaN : fromSortableBits(base + r);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const r = raw[i] as number;
      out[i] = r === noneCode ? Number.NaN : base + r;
    }
  }
}

// A facts table's column a sidecar column is unpacked into.
type Column = Float32Array | Uint8Array | Uint16Array | Uint32Array;

/** Whether a search reads the value figures (a search sorted by value reads all of them). */
export const readsValue = (need: Need): boolean => VALUE_COLUMNS.every((name) => need.has(name));
