// Builds a v2 pack: features in Hilbert order cut into pages of a target size, then the root and the lot-id index.
import type { BBox } from "../../geo/bbox.ts";
import { crc32 } from "../crc32.ts";
import { pageCrc } from "./page-frame.ts";
import { lotKey } from "../lot-id.ts";
import type { LayerKind, UploadInfo } from "../pack-meta.ts";
import { centreOf, type FeatureInput, toPageFeature } from "./feature-geometry.ts";
import { hilbertOf } from "./hilbert.ts";
import { NEIGHBOURS_COLUMN, type NeighbourBuild, type OutlineRings, pageRings } from "./neighbours.ts";
import type { KeyCounts } from "./count-table.ts";
import { OverviewBuilder } from "./overview.ts";
import { blockOverview, type Blocks } from "./block-overview.ts";
import { encodeIndexPage, INDEX_PAGE_ENTRIES } from "./lot-index.ts";
import { type ColumnCoding, COLUMN_CODING, encodePage, type PageFeature } from "./page.ts";
import { encodeRoot, type IndexEntry, type PageEntry } from "./root.ts";
import { checkRootMeta } from "./root-schema.ts";
import {
  align8,
  type ColumnSpec,
  FORMAT_VERSION,
  HEADER_BYTES,
  type LayerMeta,
  lotIdHash,
  type RootMeta,
  type SummarySpec,
  UNITS_PER_DEGREE,
  writeHeader,
} from "./schema.ts";

export type { FeatureInput };
// What a layer's writer is told before its features: its LayerMeta but what the writer counts (pages, count, box).
export type LayerHead = Omit<LayerMeta, "pages" | "count" | "bbox">;

export type PackOptions = {
  id: string;
  version: string;
  columns: ColumnSpec[];
  // A text or dict column holding each lot's id; lot ids are normalised ("12//DP34567") before hashing.
  lotIdColumn?: string;
  summary?: Partial<SummarySpec>;
  asAt?: Record<string, string>;
  info?: Record<string, string>;
  // Target bytes per page (default 128 KiB); a page closes once its estimate reaches this.
  pageBytes?: number;
  // How pages code their columns (default packed); 0 writes pages as packs before issue 33's coding, for tests.
  columnCoding?: ColumnCoding;
  // Where the overview's per-cell zone counts are kept (default in memory); the streamed build spills them to disk.
  overviewCounts?: KeyCounts;
  // An organisation's upload: who, when, from what file (kept in the root beside `info`).
  upload?: UploadInfo;
  // The street blocks a lots pack's low zooms draw (block-overview.ts), in place of the lots' cells generalised.
  blocks?: Blocks;
  // A lots pack's precomputed adjacency (neighbours.ts): encodePack fills the `neighbours` column, after the sort.
  neighbours?: NeighbourBuild;
};

export const DEFAULT_PAGE_BYTES = 128 * 1024;
// Lot-id index entries name pages in 16 bits.
const MAX_PAGES = 0xffff;

// Re-exported for the reader and the streamed build, which import it from here.
export { lotKey };

// Byte estimate of a feature in a page: ~2 bytes per delta, 11 for its index node, the columns' widths.
function estimate(f: PageFeature, columns: readonly ColumnSpec[]): number {
  let n = 12;
  for (const rings of f.polygons) for (const r of rings) n += 2 + 2 * r.length;
  for (let c = 0; c < columns.length; c++) {
    const t = (columns[c] as ColumnSpec).type;
    const v = f.values[c];
    n +=
      t === "text" || t === "json"
        ? 1 + (typeof v === "string" ? v.length : 0)
        : t === "dict" || t === "u8"
          ? 1
          : t === "u16"
            ? 2
            : 4;
  }
  return n;
}

/**
 * Writes pages as features arrive (already in Hilbert order) and hands each to `onPage`.
 * Memory: one page of features, plus ~60 bytes of root entry per page and 8 bytes per lot for the lot-id index.
 */
export class PackWriter {
  private readonly opts: PackOptions;
  private readonly onPage: (bytes: Uint8Array) => void | Promise<void>;
  private readonly summary: SummarySpec;
  private readonly colIndex: Map<string, number>;
  private readonly zoneDict = new Map<string, number>();
  private readonly entries: PageEntry[] = [];
  private pending: PageFeature[] = [];
  private pendingBytes = 0;
  private features = 0;
  private dataBytes = 0;
  private bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  private lotHashes = new Uint32Array(1024);
  private lotPages = new Uint16Array(1024);
  private lots = 0;
  private readonly overview: OverviewBuilder;
  // The layers begun so far (null: none, a lots pack's one "parcels" layer over every page) and the open one's state.
  private layers: LayerMeta[] | null = null;
  private kind: LayerKind = "polygon";
  private layerFirstFeature = 0;
  private layerBox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

  constructor(opts: PackOptions, onPage: (bytes: Uint8Array) => void | Promise<void>) {
    this.opts = opts;
    this.onPage = onPage;
    this.overview = new OverviewBuilder(opts.overviewCounts);
    this.colIndex = new Map(opts.columns.map((c, i) => [c.name, i]));
    this.summary = { zone: opts.summary?.zone ?? null, max: opts.summary?.max ?? [], flags: opts.summary?.flags ?? [] };
    if (this.summary.flags.length > 8) throw new RangeError("at most 8 flag columns");
    const named = [this.summary.zone, ...this.summary.max, ...this.summary.flags, opts.lotIdColumn ?? null];
    for (const name of named) {
      if (name !== null && !this.colIndex.has(name)) throw new RangeError(`no column named ${name}`);
    }
  }

  // A zone's number in the root's dictionary, numbered as first met.
  private zoneCode(zone: string): number {
    let code = this.zoneDict.get(zone);
    if (code === undefined) {
      code = this.zoneDict.size;
      this.zoneDict.set(zone, code);
    }
    return code;
  }

  async add(f: FeatureInput): Promise<void> {
    if (f.values.length !== this.opts.columns.length) {
      throw new RangeError(`feature has ${f.values.length} values for ${this.opts.columns.length} columns`);
    }
    const pf = toPageFeature(f, this.kind);
    this.pending.push(pf);
    this.pendingBytes += estimate(pf, this.opts.columns);
    if (this.pendingBytes >= (this.opts.pageBytes ?? DEFAULT_PAGE_BYTES)) await this.flush();
  }

  /** Closes the page and layer being written and begins the next layer, whose features come next in Hilbert order. */
  async beginLayer(head: LayerHead): Promise<void> {
    for (const f of head.fields) if (!this.colIndex.has(f)) throw new RangeError(`layer ${head.name}: no column ${f}`);
    await this.flush();
    this.closeLayer();
    const at = this.entries.length;
    this.layers ??= [];
    this.layers.push({
      name: head.name,
      kind: head.kind,
      pages: [at, at],
      count: 0,
      bbox: [0, 0, 0, 0],
      fields: [...head.fields],
      categoryField: head.categoryField,
      synthetic: head.synthetic,
      syntheticField: head.syntheticField,
      syntheticCount: head.syntheticCount,
    });
    this.kind = head.kind;
    this.layerFirstFeature = this.features;
    this.layerBox = [Infinity, Infinity, -Infinity, -Infinity];
  }

  // The open layer's pages, count and box, once its last page is written.
  private closeLayer(): void {
    const l = this.layers?.[this.layers.length - 1];
    if (!l) return;
    l.pages[1] = this.entries.length;
    l.count = this.features - this.layerFirstFeature;
    const [x0, y0, x1, y1] = this.layerBox;
    if (x0 <= x1) l.bbox = [x0 / UNITS_PER_DEGREE, y0 / UNITS_PER_DEGREE, x1 / UNITS_PER_DEGREE, y1 / UNITS_PER_DEGREE];
  }

  private col(name: string): number {
    return this.colIndex.get(name) as number;
  }

  private async flush(): Promise<void> {
    const feats = this.pending;
    if (feats.length === 0) return;
    const no = this.entries.length;
    if (no >= MAX_PAGES) throw new RangeError(`more than ${MAX_PAGES} pages: raise pageBytes`);
    const bytes = encodePage(no, feats, this.opts.columns, this.opts.columnCoding ?? COLUMN_CODING);
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    const max = this.summary.max.map(() => Number.NEGATIVE_INFINITY);
    let flags = 0;
    const zones = new Set<number>();
    const zc = this.summary.zone === null ? -1 : this.col(this.summary.zone);
    const lc = this.opts.lotIdColumn ? this.col(this.opts.lotIdColumn) : -1;
    for (const f of feats) {
      box[0] = Math.min(box[0], f.minX);
      box[1] = Math.min(box[1], f.minY);
      box[2] = Math.max(box[2], f.maxX);
      box[3] = Math.max(box[3], f.maxY);
      this.summary.max.forEach((name, m) => {
        const v = f.values[this.col(name)];
        if (typeof v === "number" && v > (max[m] as number)) max[m] = v;
      });
      this.summary.flags.forEach((name, k) => {
        const v = f.values[this.col(name)];
        if (typeof v === "number" && v > 0) flags |= 1 << k;
      });
      if (zc >= 0) {
        const z = f.values[zc];
        if (typeof z === "string") {
          const code = this.zoneCode(z);
          zones.add(code);
          const u = UNITS_PER_DEGREE;
          if (!this.opts.blocks) this.overview.add((f.minX + f.maxX) / 2 / u, (f.minY + f.maxY) / 2 / u, code);
        }
      }
      if (lc >= 0) {
        const id = f.values[lc];
        if (typeof id === "string") this.pushLot(lotIdHash(lotKey(id)), no);
      }
    }
    this.entries.push({
      length: bytes.length,
      crc: pageCrc(bytes),
      count: feats.length,
      box,
      max,
      flags,
      zones,
    });
    const lb = this.layerBox;
    this.layerBox = [
      Math.min(lb[0], box[0]),
      Math.min(lb[1], box[1]),
      Math.max(lb[2], box[2]),
      Math.max(lb[3], box[3]),
    ];
    this.bbox = [
      Math.min(this.bbox[0], box[0] / UNITS_PER_DEGREE),
      Math.min(this.bbox[1], box[1] / UNITS_PER_DEGREE),
      Math.max(this.bbox[2], box[2] / UNITS_PER_DEGREE),
      Math.max(this.bbox[3], box[3] / UNITS_PER_DEGREE),
    ];
    this.features += feats.length;
    this.dataBytes += bytes.length;
    this.pending = [];
    this.pendingBytes = 0;
    await this.onPage(bytes);
  }

  private pushLot(h: number, page: number): void {
    if (this.lots === this.lotHashes.length) {
      const hs = new Uint32Array(this.lots * 2);
      hs.set(this.lotHashes);
      this.lotHashes = hs;
      const ps = new Uint16Array(this.lots * 2);
      ps.set(this.lotPages);
      this.lotPages = ps;
    }
    this.lotHashes[this.lots] = h;
    this.lotPages[this.lots] = page;
    this.lots++;
  }

  /** Closes the last page; returns the head (header + root) that goes before the pages and the tail (lot-id index) after them. */
  async finish(): Promise<{ head: Uint8Array; tail: Uint8Array }> {
    await this.flush();
    this.closeLayer();
    // Sort (hash, page) pairs together through one float64 key: hash * 2^16 + page is exact below 2^53.
    const keys = new Float64Array(this.lots);
    for (let i = 0; i < this.lots; i++) keys[i] = (this.lotHashes[i] as number) * 65536 + (this.lotPages[i] as number);
    keys.sort();
    const hashes = Uint32Array.from(keys, (k) => Math.floor(k / 65536));
    const pages = Uint16Array.from(keys, (k) => k % 65536);
    const index: IndexEntry[] = [];
    const tailParts: Uint8Array[] = [];
    let start = 0;
    while (start < this.lots) {
      let end = Math.min(this.lots, start + INDEX_PAGE_ENTRIES);
      // A run of equal hashes never straddles two index pages.
      while (end < this.lots && hashes[end] === hashes[end - 1]) end++;
      const b = encodeIndexPage(index.length, hashes.subarray(start, end), pages.subarray(start, end));
      index.push({ firstHash: hashes[start] as number, length: b.length, crc: pageCrc(b) });
      tailParts.push(b);
      start = end;
    }
    const ov = this.opts.blocks ? blockOverview(this.opts.blocks, (z) => this.zoneCode(z)) : this.overview.finish();
    tailParts.push(...ov.pages);
    const meta: RootMeta = {
      id: this.opts.id,
      version: this.opts.version,
      bbox: this.bbox,
      unitsPerDegree: UNITS_PER_DEGREE,
      columns: this.opts.columns,
      lotIdColumn: this.opts.lotIdColumn ?? null,
      summary: this.summary,
      zoneDict: [...this.zoneDict.keys()],
      asAt: this.opts.asAt ?? {},
      info: this.opts.info ?? {},
      ...(ov.pages.length > 0 ? { overview: ov.meta } : {}),
      ...(this.layers ? { layers: this.layers } : {}),
      ...(this.opts.upload ? { upload: this.opts.upload } : {}),
    };
    // What a reader would refuse (a layer's field that is no column, a syntheticCount past its count) is refused here.
    const checked = checkRootMeta(JSON.parse(JSON.stringify(meta)));
    if ("problem" in checked) throw new RangeError(`pack ${meta.id}: ${checked.problem}`);
    const root = encodeRoot(meta, this.entries, index);
    const dataStart = align8(HEADER_BYTES + root.length);
    const tailLength = tailParts.reduce((s, b) => s + b.length, 0);
    const header = writeHeader({
      version: FORMAT_VERSION,
      rootLength: root.length,
      rootCrc: crc32(root),
      dataStart,
      pageCount: this.entries.length,
      featureCount: this.features,
      indexPageCount: index.length,
      objectLength: dataStart + this.dataBytes + tailLength,
    });
    const head = new Uint8Array(dataStart);
    head.set(header, 0);
    head.set(root, HEADER_BYTES);
    const tail = new Uint8Array(tailLength);
    let at = 0;
    for (const b of tailParts) {
      tail.set(b, at);
      at += b.length;
    }
    return { head, tail };
  }
}

/** Feature numbers in the Hilbert order of their centres over the centres' box (ties in input order). */
export function hilbertOrder(centres: readonly [number, number][]): number[] {
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of centres) {
    bbox[0] = Math.min(bbox[0], x);
    bbox[1] = Math.min(bbox[1], y);
    bbox[2] = Math.max(bbox[2], x);
    bbox[3] = Math.max(bbox[3], y);
  }
  const keys = Float64Array.from(centres, ([x, y]) => hilbertOf(x, y, bbox));
  return Array.from(centres.keys()).sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
}

/** The pack's bytes: the head, its pages in order, then the tail, as PackWriter gave them. */
export function joinPack(head: Uint8Array, pages: readonly Uint8Array[], tail: Uint8Array): Uint8Array {
  const total = head.length + pages.reduce((s, b) => s + b.length, 0) + tail.length;
  const out = new Uint8Array(total);
  out.set(head, 0);
  let at = head.length;
  for (const b of pages) {
    out.set(b, at);
    at += b.length;
  }
  out.set(tail, at);
  return out;
}

// The neighbours column's values in pack order, when asked for (the column must be among the pack's).
function neighbourColumn(
  all: readonly FeatureInput[],
  order: readonly number[],
  opts: PackOptions,
): { col: number; values: (string | null)[] } | null {
  if (!opts.neighbours) return null;
  const col = opts.columns.findIndex((c) => c.name === NEIGHBOURS_COLUMN.name);
  if (col < 0) throw new RangeError(`precomputed adjacency needs a ${NEIGHBOURS_COLUMN.name} column`);
  const rings = order.map((i) => pageRings((all[i] as FeatureInput).geometry));
  const values = opts.neighbours(order.length, (k) => rings[k] as OutlineRings);
  return { col, values };
}

/**
 * Builds a whole v2 pack in memory. Sorting by the Hilbert index of feature centres needs every feature at once,
 * so this holds the input; a streaming build feeds PackWriter features it has already sorted. `pace`, when given, is
 * awaited after the sort and after each page.
 */
export async function encodePack(
  features: Iterable<FeatureInput> | AsyncIterable<FeatureInput>,
  opts: PackOptions,
  pace?: () => Promise<void>,
): Promise<Uint8Array> {
  const all: FeatureInput[] = [];
  for await (const f of features) all.push(f);
  const order = hilbertOrder(all.map((f) => centreOf(f.geometry)));
  await pace?.();
  const pages: Uint8Array[] = [];
  // A page is a few thousand lots encoded: `pace` lets the caller's other work run between pages.
  const w = new PackWriter(opts, async (b) => {
    pages.push(b);
    await pace?.();
  });
  const adjacency = neighbourColumn(all, order, opts);
  // Measuring the adjacency is a step of its own: a pause after it, as after the sort.
  if (adjacency) await pace?.();
  for (let k = 0; k < order.length; k++) {
    const f = all[order[k] as number] as FeatureInput;
    if (!adjacency) await w.add(f);
    else {
      const values = [...f.values];
      values[adjacency.col] = adjacency.values[k] ?? null;
      await w.add({ geometry: f.geometry, values });
    }
  }
  const { head, tail } = await w.finish();
  return joinPack(head, pages, tail);
}
