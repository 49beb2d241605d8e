// Reads a search sidecar by range: its head once per object version, then only the blocks a search needs, merged
// into few reads, decoded into facts tables the engine tests as it tests pages.
import { ByteLru } from "../../packs/byte-lru.ts";
import type { Root, Source } from "../../packs/paged/index.ts";
import { type Coded, type FactsTable, VALUE_BYTES_PER_LOT } from "../facts-table.ts";
import { fromSortableBits, unpackBits } from "./bits.ts";
import {
  BITS,
  type BlockEntry,
  INT,
  COLUMNS,
  type ColumnName,
  packIdentity,
  SCALED,
  SIDECAR_MAGIC,
  SIDECAR_VERSION,
  type SidecarHead,
  SPARSE,
  VALUE_COLUMNS,
} from "./format.ts";

/** The columns a search reads, and a key naming them. */
export type Need = { has(name: ColumnName): boolean; key: string };

/** A block as a facts table, with each lot's row in the pack, its page and index there, and its rank by lot key. */
export type BlockTable = { b: number; t: FactsTable; first: number; rank: Uint32Array; page: Uint32Array };

// Decoded blocks kept per isolate: a council area's blocks stay warm for the next search (a block is about 300 KB).
export const SIDECAR_CACHE_BYTES = 8 * 1024 * 1024;
const blockCache = new ByteLru<BlockTable>(SIDECAR_CACHE_BYTES, Number.POSITIVE_INFINITY);
// Blocks a gap of at most this many bytes apart are read in one range: a read costs more than the bytes between.
const MERGE_GAP = 64 * 1024;
// A run stops growing here (unless the ranges allowed force more): three in flight hold a few MiB, not the region.
const MAX_RUN_BYTES = 4 * 1024 * 1024;
// The first read of a head: a 1.5M-lot pack's (about 600 KB) fits; the rest is read once when not.
const HEAD_READ = 1024 * 1024;

export function clearSidecarBlocks(): void {
  for (const k of blockCache.keys()) blockCache.delete(k);
}

const coded = (n: number, names: string[]): Coded => ({ codes: new Uint16Array(n), names: [null, ...names] });

export class Sidecar {
  readonly source: Source;
  readonly etag: string;
  readonly head: SidecarHead;
  private readonly start: number;
  /** Reads made and bytes read by this reader (the bench's figures). */
  reads = 0;
  bytesRead = 0;

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
    if (head.v !== SIDECAR_VERSION || head.columns.join() !== COLUMNS.join())
      throw bad(`got v${head.v} data when expected v${SIDECAR_VERSION}: rebuild it (scripts/pack/search-sidecar.ts)`);
    return new Sidecar(source, first.etag, head, Math.ceil((8 + len) / 8) * 8);
  }

  /** True when this sidecar was built from the pack version of `root`. */
  matches(root: Root): boolean {
    return this.head.identity === packIdentity(root);
  }

  /** Bytes of these blocks (and of their value figures when `need` reads them). */
  bytesOf(blocks: readonly number[], need?: Need): number {
    const value = need !== undefined && readsValue(need);
    return blocks.reduce((n, b) => {
      const e = this.head.blocks[b] as BlockEntry;
      return n + e.n + (value ? e.vn : 0);
    }, 0);
  }

  /** The blocks holding rows of these pages. */
  blocksOfPages(pages: readonly number[]): Set<number> {
    const out = new Set<number>();
    const rows = this.head.blocks[0]?.rows ?? 1;
    for (const p of pages) {
      const from = this.head.pageStarts[p] as number;
      const to = (this.head.pageStarts[p + 1] as number) - 1;
      for (let b = Math.floor(from / rows); b <= Math.floor(to / rows); b++) out.add(b);
    }
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
    return run.map((b) => () => {
      const e = this.head.blocks[b] as BlockEntry;
      const at = e.o - a.o;
      // A copy aligned for the words: the range's buffer starts anywhere. The value figures follow the other columns.
      const bytes = new Uint8Array(e.n + (figures ? e.vn : 0));
      bytes.set(got.data.subarray(at, at + e.n));
      if (figures) bytes.set(figures.data.subarray(e.vo - a.vo, e.vo - a.vo + e.vn), e.n);
      const table = this.decode(b, bytes, need);
      if (keep) blockCache.set(this.cacheKey(b, need), table, table.t.bytes);
      return table;
    });
  }

  /** Block `b` from its bytes: each column unpacked into the facts table's own arrays. */
  decode(b: number, bytes: Uint8Array, need: Need): BlockTable {
    const e = this.head.blocks[b] as BlockEntry;
    const n = e.rows;
    const expected = e.n + (readsValue(need) ? e.vn : 0);
    if (bytes.length !== expected)
      throw new Error(`search sidecar ${this.source.key}: block ${b} is ${bytes.length} bytes, not ${expected}`);
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const raw = new Uint32Array(n);
    const values = new Map<ColumnName, Float64Array>();
    let w = 0;
    COLUMNS.forEach((name, c) => {
      const [kind, scale, base, width, none] = e.c[c] as [number, number, number, number, number];
      const out = new Float64Array(n);
      // A column the search never reads is stepped over (its lots read as none): the CPU goes to the rest.
      if (!need.has(name)) {
        out.fill(kind === INT || kind === SPARSE ? 0 : Number.NaN);
        w += kind === SPARSE ? Math.ceil(n / 32) + Math.ceil((scale * width) / 32) : Math.ceil((n * width) / 32);
        values.set(name, out);
        return;
      }
      if (kind === SPARSE) {
        const mapWords = Math.ceil(n / 32);
        const count = Math.ceil((scale * width) / 32);
        const map = words.subarray(w, w + mapWords);
        unpackBits(words.subarray(w + mapWords, w + mapWords + count), width, scale, raw);
        w += mapWords + count;
        let k = 0;
        for (let i = 0; i < n; i++)
          if (((map[i >>> 5] as number) >>> (i & 31)) & 1) out[i] = base + (raw[k++] as number);
        values.set(name, out);
        return;
      }
      const count = Math.ceil((n * width) / 32);
      unpackBits(words.subarray(w, w + count), width, n, raw);
      w += count;
      const noneCode = width === 32 ? 0xffffffff : 2 ** width - 1;
      for (let i = 0; i < n; i++) {
        const r = raw[i] as number;
        if (none === 1 && r === noneCode) out[i] = Number.NaN;
        else if (kind === BITS) out[i] = fromSortableBits(base + r);
        else if (kind === SCALED) out[i] = Math.fround((base + r) / scale);
        else out[i] = base + r;
      }
      values.set(name, out);
    });
    const get = (name: ColumnName) => values.get(name) as Float64Array;
    const { dicts, pageStarts, frames } = this.head;
    const page = new Uint32Array(n);
    const lon = new Float64Array(n);
    const lat = new Float64Array(n);
    const x = Float32Array.from(get("x"));
    const y = Float32Array.from(get("y"));
    let p = 0;
    while ((pageStarts[p + 1] as number) <= e.first) p++;
    for (let i = 0; i < n; i++) {
      while ((pageStarts[p + 1] as number) <= e.first + i) p++;
      page[i] = p;
      // As the page's table places it: its frame's origin plus the float32 offset.
      lon[i] = (frames[p * 2] as number) + (x[i] as number);
      lat[i] = (frames[p * 2 + 1] as number) + (y[i] as number);
    }
    const withCodes = (c: Coded, name: ColumnName) => {
      c.codes.set(get(name));
      return c;
    };
    const t: FactsTable = {
      packId: this.head.packId,
      own: false,
      count: n,
      x0: 0,
      y0: 0,
      x,
      y,
      lon,
      lat,
      area: Float32Array.from(get("area")),
      fsr: Float32Array.from(get("fsr")),
      height: Float32Array.from(get("height")),
      minLot: Float32Array.from(get("minLot")),
      flood: Uint16Array.from(get("flood")),
      bushfire: Uint16Array.from(get("bushfire")),
      heritage: Uint16Array.from(get("heritage")),
      heritageKind: Uint8Array.from(get("heritageKind")),
      stationM: Float32Array.from(get("stationM")),
      zone: withCodes(coded(n, dicts.zone), "zone"),
      station: coded(n, []),
      suburb: withCodes(coded(n, dicts.suburb), "suburb"),
      lga: withCodes(coded(n, dicts.lga), "lga"),
      // Lot ids and addresses stay in the pages: a result's are read from its page.
      lotId: [],
      address: null,
      demo: new Uint8Array(n),
      bytes: 256 + n * 60,
    };
    if (readsValue(need)) {
      t.value = {
        basis: Uint8Array.from(get("basis")),
        dwellings: Float32Array.from(get("dwellings")),
        gfa: Float32Array.from(get("gfa")),
        existingKind: Uint8Array.from(get("existingKind")),
        existingDwellings: Float32Array.from(get("existingDwellings")),
        existingUnits: Float32Array.from(get("existingUnits")),
        existingFloor: Float32Array.from(get("existingFloor")),
      };
      t.bytes += n * VALUE_BYTES_PER_LOT;
    }
    return { b, t, first: e.first, rank: Uint32Array.from(get("rank")), page };
  }
}

/** Whether a search reads the value figures (a search sorted by value reads all of them). */
export const readsValue = (need: Need): boolean => VALUE_COLUMNS.every((name) => need.has(name));
