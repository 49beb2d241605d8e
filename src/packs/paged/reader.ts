// Reads a v2 pack by byte range: the header and root once per isolate, then only the pages a query needs.
import Flatbush from "flatbush";
import { logger } from "../../logger.ts";
import { type BBox, featureBBox } from "../../geo/bbox.ts";
import { pointInFeature } from "../../geo/pip.ts";
import type { MultiPolygonGeometry, Position } from "../../geo/types.ts";
import { lotKey } from "./encode.ts";
import { EtagMismatchError, PagedPackError, PageRefusedError } from "./errors.ts";
import { decodeIndexPage, type LotIndexPage, pagesForHash } from "./lot-index.ts";
import {
  type CachedPage,
  isolatePageCache,
  type PageCache,
  type PageKind,
  type PageTable,
  pageId,
} from "./page-cache.ts";
import {
  type DecodedPage,
  decodePage,
  decodePageColumns,
  ensurePageGrid,
  GRID_HEAD_INTS,
  lotInGrid,
  lotInPage,
  type PageColumns,
  type PageGrid,
  pageValue,
  searchPage,
} from "./page.ts";
import { searchInto, sortPrefix } from "../flatbush-walk.ts";
import { type BoxGrid, buildBoxGrid, gridCell } from "./box-grid.ts";
import { decodeRoot, type Root, tileKey } from "./root.ts";
import { measurePages, type PlannedRuns, planWithin } from "./page-plan.ts";
import { ReadBudget, ReadBudgetError, type ReadCost } from "./read-budget.ts";
import { planReads, type Run } from "./runs.ts";
import { decodeOverviewPage, type OverviewPage } from "./overview.ts";
import { type BlockPage, decodeBlockPage } from "./block-overview.ts";
import {
  HEADER_BYTES,
  type Header,
  INITIAL_READ_BYTES,
  lotIdHash,
  MAX_ROOT_BYTES,
  readHeader,
  type Value,
} from "./schema.ts";
import type { Source } from "./source.ts";
import { readStoredTile } from "./stored-tiles.ts";

export type Hit = {
  page: number;
  // The feature's position within its page.
  index: number;
  properties: Record<string, Value>;
  geometry: MultiPolygonGeometry;
};
// A refused page of pack `key` (its object key), and why.
export type RefusedPage = { key: string; page: number; message: string };
// The lot a point falls in: its page and position there (null when no lot holds the point).
export type LotAt = {
  snapshot: Snapshot;
  lot: { page: DecodedPage; index: number } | null;
  refused: RefusedPage[];
};
// Features from the pages that served; pages refused (damaged) are named, never silently dropped.
export type QueryResult = { features: Hit[]; refused: RefusedPage[] };
// Decoded pages of one version of the pack, in page order.
export type PageSet = { snapshot: Snapshot; pages: DecodedPage[]; refused: RefusedPage[] };

export type ReaderOptions = {
  cache?: PageCache;
  initialBytes?: number;
  // The header and root's length as the object's listing gives it (object-meta.ts): the first read takes them whole.
  headBytes?: number;
  log?: (message: string) => void;
  // A merged read never spans more than this many bytes.
  maxReadBytes?: number;
  // The etag the registry (or the organisation's Durable Object) names: a memoised root of another etag is re-read.
  etag?: string;
  // After this long a memoised root is revalidated with a 64-byte read carrying its etag (default 60 s).
  rootTtlMs?: number;
  now?: () => number;
};

type LoadOptions = { maxReads?: number };

/** How a plan's pages are read: `keep: false` past the page cache. */
export type PlanReadOptions = { keep?: boolean; signal?: AbortSignal };

/**
 * Data pages of one version of a pack and how they will be read (PagedPack.planPages): what they cost, the bytes
 * their ranges span (pages and the gaps read through), and the budget's limit they go over, if any.
 */
export type PagePlan = Readonly<Omit<PlannedRuns, "runs">> & { readonly pack: PagedPack; readonly snapshot: Snapshot };

// Each plan's byte ranges, kept from its callers: they ask for pages, never for offsets.
const plannedRuns = new WeakMap<PagePlan, readonly Run[]>();

/** Refuses a plan over its budget before any read (its caller should have refused it in its own words). */
export function refuseOver(plan: PagePlan): void {
  if (plan.over !== null) throw new ReadBudgetError(plan.snapshot.root.meta.id, plan.over, plan.cost[plan.over]);
}

// The byte offsets of pages of `kind`, one more than there are pages.
function offsetsOf(s: Snapshot, kind: PageKind): Float64Array {
  return kind === "page" ? s.root.pageOffsets : kind === "index" ? s.root.indexOffsets : s.root.overviewOffsets;
}

export type Snapshot = { key: string; etag: string; header: Header; root: Root };

const MAX_ROOTS = 64;
const DEFAULT_ROOT_TTL_MS = 60_000;
// A root read, and when it was last known current.
type Memo = { value: Snapshot; checkedAt: number };
// Roots per object key, shared by every reader in the isolate; an etag change replaces the entry. Resolved roots only:
// a Worker's request that awaited a read begun by another request would hang if that request were cancelled.
const roots = new Map<string, Memo>();

/** Forgets every memoised root (tests). */
export function clearRootMemo(): void {
  roots.clear();
}

/** Forgets one object's memoised root (a pack read once while it was built). */
export function forgetRoot(key: string): void {
  roots.delete(key);
}

async function readSnapshot(source: Source, firstBytes: number, signal?: AbortSignal): Promise<Snapshot> {
  const key = source.key;
  const first = await source.getBytes(0, firstBytes, signal);
  const header = readHeader(first.data, key);
  if (first.size !== header.objectLength) {
    const what = first.size < header.objectLength ? "is truncated" : "has trailing bytes";
    throw new PagedPackError(
      key,
      `pack ${key} ${what}: header says ${header.objectLength} bytes, object holds ${first.size}`,
    );
  }
  const rootEnd = HEADER_BYTES + header.rootLength;
  let rootBytes: Uint8Array;
  if (rootEnd <= first.data.length) {
    rootBytes = first.data.subarray(HEADER_BYTES, rootEnd);
  } else {
    // A root larger than the first read (millions of lots, and no length from the listing) costs one more read.
    const have = first.data.length;
    const rest = await source.getBytes(have, rootEnd - have, signal, first.etag);
    if (rest.data.length !== rootEnd - have)
      throw new PagedPackError(key, `pack ${key} is truncated inside its root index`);
    rootBytes = new Uint8Array(rootEnd - HEADER_BYTES);
    rootBytes.set(first.data.subarray(HEADER_BYTES));
    rootBytes.set(rest.data, have - HEADER_BYTES);
  }
  const root = decodeRoot(rootBytes, header, key);
  return { key, etag: first.etag, header, root };
}

// The bytes of page `no` of `kind` checked and decoded (a damaged page throws PageRefusedError, naming it).
function decodeCached(s: Snapshot, kind: PageKind, no: number, bytes: Uint8Array): CachedPage {
  const { root } = s;
  if (kind === "overview") {
    const crc = root.meta.overview?.pages[no]?.crc ?? 0;
    const decode = root.meta.overview?.kind === "blocks" ? decodeBlockPage : decodeOverviewPage;
    return decode(bytes, no, crc, s.key, root.meta.zoneDict.length);
  }
  return kind === "page"
    ? decodePage(bytes, no, root.pageCrcs[no] as number, root.meta.columns, s.key, root.pageCounts[no])
    : decodeIndexPage(bytes, no, root.indexCrcs[no] as number, s.key, root.pageCount);
}

// The first read's length: the header and root whole when the listing says how long they are (a length no v2 root
// can have is ignored), else INITIAL_READ_BYTES, a guess that holds the roots of all but the largest packs.
function firstReadBytes(opts: ReaderOptions): number {
  const head = opts.headBytes;
  const fits = head !== undefined && Number.isSafeInteger(head) && head > HEADER_BYTES;
  return fits && head <= HEADER_BYTES + MAX_ROOT_BYTES ? head : (opts.initialBytes ?? INITIAL_READ_BYTES);
}

function isDataPage(p: CachedPage): p is DecodedPage {
  return "columns" in p;
}
function isIndexPage(p: CachedPage): p is LotIndexPage {
  return "hashes" in p;
}

const pageIndexes = new WeakMap<Root, Flatbush>();
// Page numbers of one synchronous lookup (never re-entered).
const scratch: number[] = [];

// Thousands of pages: a query finds its few without scanning every box.
function pageIndexOf(root: Root): Flatbush {
  let index = pageIndexes.get(root);
  if (index) return index;
  const b = root.pageBoxes;
  index = new Flatbush(Math.max(1, root.pageCount));
  for (let i = 0; i < root.pageCount; i++) {
    index.add(b[4 * i] as number, b[4 * i + 1] as number, b[4 * i + 2] as number, b[4 * i + 3] as number);
  }
  // An empty pack still needs a finished index; its one box is never a page.
  if (root.pageCount === 0) index.add(Infinity, Infinity, Infinity, Infinity);
  index.finish();
  pageIndexes.set(root, index);
  return index;
}

let tick: number | null = null;
// The clock read once per synchronous run (as a Worker's clock stands still while code runs): a burst of warm
// lookups pays for one Date.now, not one each.
function tickNow(): number {
  if (tick === null) {
    tick = Date.now();
    queueMicrotask(() => {
      tick = null;
    });
  }
  return tick;
}

const pageGrids = new WeakMap<Root, BoxGrid | null>();

// Pages by a uniform grid over the pack: a point's few candidate pages without walking the page index.
function pageGridOf(root: Root): BoxGrid | null {
  const have = pageGrids.get(root);
  if (have !== undefined) return have;
  const b = root.pageBoxes;
  const frame: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < root.pageCount; i++) {
    frame[0] = Math.min(frame[0], b[4 * i] as number);
    frame[1] = Math.min(frame[1], b[4 * i + 1] as number);
    frame[2] = Math.max(frame[2], b[4 * i + 2] as number);
    frame[3] = Math.max(frame[3], b[4 * i + 3] as number);
  }
  const side = Math.min(1024, 2 * Math.ceil(Math.sqrt(root.pageCount)));
  const grid =
    root.pageCount === 0
      ? null
      : buildBoxGrid(
          root.pageCount,
          frame,
          side,
          (i, out) => {
            out.set(b.subarray(4 * i, 4 * i + 4));
          },
          32 * root.pageCount,
        );
  pageGrids.set(root, grid);
  return grid;
}

/** Writes the pages whose box holds the point into `out`, in page order; returns how many. */
function pagesAtPoint(root: Root, x: number, y: number, out: number[]): number {
  const g = pageGridOf(root);
  if (!g) {
    const n = searchInto(pageIndexOf(root), x, y, x, y, out);
    sortPrefix(out, n);
    return n;
  }
  const b = root.pageBoxes;
  const c = gridCell(g, x, y);
  let n = 0;
  // Pages were added in page order, so a cell lists them sorted.
  for (let k = g.starts[c] as number; k < (g.starts[c + 1] as number); k++) {
    const p = g.items[k] as number;
    if (
      x >= (b[4 * p] as number) &&
      x <= (b[4 * p + 2] as number) &&
      y >= (b[4 * p + 1] as number) &&
      y <= (b[4 * p + 3] as number)
    )
      out[n++] = p;
  }
  return n;
}

export class PagedPack {
  readonly source: Source;
  private readonly cache: PageCache;
  private readonly firstReadBytes: number;
  private readonly maxReadBytes: number;
  private readonly log: (message: string) => void;
  private readonly rootTtlMs: number;
  private readonly now: () => number;
  private readonly etag: string | undefined;
  private heldTable: PageTable | undefined;

  constructor(source: Source, opts: ReaderOptions = {}) {
    this.etag = opts.etag;
    this.rootTtlMs = opts.rootTtlMs ?? DEFAULT_ROOT_TTL_MS;
    this.now = opts.now ?? Date.now;
    this.source = source;
    this.cache = opts.cache ?? isolatePageCache();
    this.firstReadBytes = firstReadBytes(opts);
    this.maxReadBytes = opts.maxReadBytes ?? 8 * 1024 * 1024;
    this.log = opts.log ?? ((m) => logger.warn(m));
  }

  /** The memoised root of this object, read on first use and revalidated once its time to live has passed. */
  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    const memo = roots.get(this.source.key);
    // None yet, or the registry (or Durable Object) named another etag: this isolate's memo is of a replaced object.
    if (!memo || (this.etag !== undefined && memo.value.etag !== this.etag)) return this.readRoot(signal);
    const s = memo.value;
    if (this.now() - memo.checkedAt < this.rootTtlMs) return s;
    try {
      // Pages cached under this etag may be served only while the object still has it.
      const r = await this.source.getBytes(0, HEADER_BYTES, signal, s.etag);
      if (r.etag === s.etag) {
        memo.checkedAt = this.now();
        return s;
      }
    } catch (e) {
      if (!(e instanceof EtagMismatchError)) throw e;
    }
    return this.refresh(s, signal);
  }

  // Reads the header and root in this request, memoised once read: a failed read is not, so the next query tries again.
  private async readRoot(signal?: AbortSignal): Promise<Snapshot> {
    const s = await readSnapshot(this.source, this.firstReadBytes, signal);
    const key = this.source.key;
    roots.delete(key);
    roots.set(key, { value: s, checkedAt: this.now() });
    if (roots.size > MAX_ROOTS) roots.delete(roots.keys().next().value as string);
    return s;
  }

  // Re-reads the root, unless another query already read the changed object's.
  async refresh(stale: Snapshot, signal?: AbortSignal): Promise<Snapshot> {
    const current = roots.get(this.source.key)?.value;
    if (current && current.etag !== stale.etag) return current;
    this.log(`pack ${stale.key} changed (was etag ${stale.etag}): root re-read`);
    return this.readRoot(signal);
  }

  // Runs a query against one version; if the object changes mid-query it re-reads the root and runs again.
  private async run<T>(q: (s: Snapshot) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const s = await this.snapshot(signal);
    try {
      return await q(s);
    } catch (e) {
      if (!(e instanceof EtagMismatchError)) throw e;
      return q(await this.refresh(s, signal));
    }
  }

  // Pages `nos` of `kind` found in the cache, and those that are not (ascending).
  private fromCache(s: Snapshot, kind: PageKind, nos: readonly number[]) {
    const pages = new Map<number, CachedPage>();
    const missing: number[] = [];
    for (const no of nos) {
      const hit = this.cache.get(s.key, s.etag, pageId(kind, no));
      if (hit) pages.set(no, hit);
      else missing.push(no);
    }
    return { pages, missing };
  }

  private async load(
    s: Snapshot,
    nos: readonly number[],
    kind: PageKind,
    signal?: AbortSignal,
    opts: LoadOptions = {},
  ): Promise<{ pages: Map<number, CachedPage>; refused: RefusedPage[] }> {
    const { pages, missing } = this.fromCache(
      s,
      kind,
      [...new Set(nos)].sort((a, b) => a - b),
    );
    // Adjacent pages are adjacent bytes: each run of consecutive page numbers is one read; a caller bounding its
    // reads (a tile: at most 2) reads through the gaps between the pages it needs.
    const plan = { maxReads: opts.maxReads, maxReadBytes: this.maxReadBytes };
    const read = await this.readRuns(s, kind, planReads(offsetsOf(s, kind), missing, plan), true, signal);
    for (const [no, page] of read.pages) pages.set(no, page);
    return { pages, refused: read.refused };
  }

  // Reads each run in one request, decoding (and with `keep`, caching) its pages; a damaged page is refused alone.
  // Bytes [start, end) of the version the root was read from, whole (a changed or truncated object throws).
  private async readSpan(s: Snapshot, kind: PageKind, start: number, end: number, no: number, signal?: AbortSignal) {
    const r = await this.source.getBytes(start, end - start, signal, s.etag);
    if (r.etag !== s.etag)
      throw new EtagMismatchError(s.key, `pack ${s.key} changed (etag ${r.etag}, root read at ${s.etag})`);
    if (r.data.length !== end - start) {
      throw new PagedPackError(
        s.key,
        `pack ${s.key} is truncated: ${kind} ${no} needs bytes [${start}, ${end}) but the object ends at ${r.size}`,
      );
    }
    return r.data;
  }

  private async readRuns(
    s: Snapshot,
    kind: PageKind,
    runs: readonly Run[],
    keep: boolean,
    signal?: AbortSignal,
  ): Promise<{ pages: Map<number, CachedPage>; refused: RefusedPage[] }> {
    const offsets = offsetsOf(s, kind);
    // Each page not cached is read by this request, even if another request is reading it now (page-cache.ts: why).
    const loads: Promise<readonly [number, CachedPage]>[] = [];
    for (const run of runs) {
      const { start, end } = run;
      const startNo = run.pages[0] as number;
      const read = this.readSpan(s, kind, start, end, startNo, signal);
      for (const no of run.pages) {
        const a = (offsets[no] as number) - start;
        const b = (offsets[no + 1] as number) - start;
        const decoded = read.then((d): readonly [number, CachedPage] => {
          const page = decodeCached(s, kind, no, d.subarray(a, b));
          if (keep) this.cache.set(s.key, s.etag, pageId(kind, no), page);
          return [no, page];
        });
        loads.push(decoded);
      }
    }
    const pages = new Map<number, CachedPage>();
    const refused: RefusedPage[] = [];
    const settled = await Promise.allSettled(loads);
    let failure: unknown = null;
    for (const r of settled) {
      if (r.status === "fulfilled") pages.set(r.value[0], r.value[1]);
      else if (r.reason instanceof PageRefusedError) {
        this.log(r.reason.message);
        refused.push({ key: s.key, page: r.reason.page, message: r.reason.message });
      } else if (failure === null || r.reason instanceof EtagMismatchError) failure = r.reason;
    }
    if (failure !== null) throw failure;
    return { pages, refused };
  }

  /** The snapshot, synchronously, when the memo holds a root still within its time to live (else null). */
  current(): Snapshot | null {
    const memo = roots.get(this.source.key);
    if (!memo) return null;
    const s = memo.value;
    if (this.etag !== undefined && s.etag !== this.etag) return null;
    const now = this.now === Date.now ? tickNow() : this.now();
    return now - memo.checkedAt < this.rootTtlMs ? s : null;
  }

  /** Data pages `nos` (sorted, distinct) when every one is cached, else null: a warm query awaits nothing. */
  cachedPages(s: Snapshot, nos: readonly number[]): DecodedPage[] | null {
    const out: DecodedPage[] = [];
    for (const no of nos) {
      const p = this.cache.get(s.key, s.etag, pageId("page", no));
      if (!p || !isDataPage(p)) return null;
      out.push(p);
    }
    return out;
  }

  /** Counts `bytes` of structures built from a cached data page against the cache's budget. */
  chargePage(s: Snapshot, no: number, bytes: number): void {
    this.cache.grow(s.key, s.etag, pageId("page", no), bytes);
  }

  private async dataPages(s: Snapshot, nos: readonly number[], signal?: AbortSignal, opts: LoadOptions = {}) {
    const { pages, refused } = await this.load(s, nos, "page", signal, opts);
    const out: DecodedPage[] = [];
    for (const p of pages.values()) if (isDataPage(p)) out.push(p);
    out.sort((a, b) => a.no - b.no);
    return { pages: out, refused };
  }

  private hit(s: Snapshot, page: DecodedPage, i: number): Hit {
    const properties: Record<string, Value> = {};
    s.root.meta.columns.forEach((c, k) => {
      properties[c.name] = pageValue(page, k, i);
    });
    const polys: Position[][][] = [];
    const p0 = page.featureOffsets[i] as number;
    const p1 = page.featureOffsets[i + 1] as number;
    for (let p = p0; p < p1; p++) {
      const rings: Position[][] = [];
      for (let r = page.polyOffsets[p] as number; r < (page.polyOffsets[p + 1] as number); r++) {
        const ring: Position[] = [];
        const v0 = page.ringOffsets[r] as number;
        const v1 = page.ringOffsets[r + 1] as number;
        for (let v = v0; v < v1; v++) ring.push([page.coords[2 * v] as number, page.coords[2 * v + 1] as number]);
        if (v1 > v0) ring.push([page.coords[2 * v0] as number, page.coords[2 * v0 + 1] as number]);
        rings.push(ring);
      }
      polys.push(rings);
    }
    return { page: page.no, index: i, properties, geometry: { type: "MultiPolygon", coordinates: polys } };
  }

  /** Pages whose box meets [w, s, e, n], chosen from the root alone (through an index of page boxes, per root). */
  pagesInBox(s: Snapshot, box: BBox): number[] {
    if (box[0] === box[2] && box[1] === box[3]) return scratch.slice(0, pagesAtPoint(s.root, box[0], box[1], scratch));
    const n = searchInto(pageIndexOf(s.root), box[0], box[1], box[2], box[3], scratch);
    sortPrefix(scratch, n);
    return scratch.slice(0, n);
  }

  /**
   * The lot holding the point, without a promise or a read, when the root is fresh and every page under the point
   * is cached; undefined when not (then ask lotAt). The first page (in page order) holding it answers, with its
   * lowest feature: the lot parcelAt finds over the same pages.
   */
  lotAtWarm(lon: number, lat: number): LotAt | undefined {
    const s = this.current();
    if (!s) return undefined;
    const n = pagesAtPoint(s.root, lon, lat, scratch);
    // No page under the point: nothing need be cached.
    if (n === 0) return { snapshot: s, lot: null, refused: [] };
    const t = this.pageTable(s);
    if (!t) return undefined;
    // Pages in order: the first holding the point answers, so later pages need not be cached.
    for (let k = 0; k < n; k++) {
      const no = scratch[k] as number;
      let grid = this.cache.gridOf(t, no);
      let page = t.pages[no];
      // The grid's header: the table's copy when the table holds the grid, else the grid's own.
      let head: Int32Array = t.heads;
      let h = GRID_HEAD_INTS * no;
      if (grid === undefined || page === undefined) {
        const got = this.cache.get(s.key, s.etag, pageId("page", no));
        if (!got || !isDataPage(got)) return undefined;
        if (!got.grid) this.chargePage(s, no, ensurePageGrid(got));
        this.cache.holdGrid(t, no, got);
        page = got;
        grid = got.grid as PageGrid;
        head = grid;
        h = 0;
      }
      const index = lotInGrid(grid, head, h, page, lon, lat);
      if (index >= 0) return { snapshot: s, lot: { page, index }, refused: [] };
    }
    return { snapshot: s, lot: null, refused: [] };
  }

  // The cache's table of this snapshot's pages, held between lookups while it stays live and of this etag.
  private pageTable(s: Snapshot): PageTable | undefined {
    const held = this.heldTable;
    if (held?.live && held.etag === s.etag && held.key === s.key) return held;
    this.heldTable = this.cache.table(s.key, s.etag);
    return this.heldTable;
  }

  /** The lot holding the point (see lotAtWarm), reading the pages under it when they are not cached. */
  lotAt(lon: number, lat: number, signal?: AbortSignal): Promise<LotAt> {
    const warm = this.lotAtWarm(lon, lat);
    if (warm) return Promise.resolve(warm);
    return this.run(async (s) => {
      const { pages, refused } = await this.dataPages(s, this.pagesInBox(s, [lon, lat, lon, lat]), signal);
      for (const page of pages) {
        if (!page.grid) this.chargePage(s, page.no, ensurePageGrid(page));
        const index = lotInPage(page, lon, lat);
        if (index >= 0) return { snapshot: s, lot: { page, index }, refused };
      }
      return { snapshot: s, lot: null, refused };
    }, signal);
  }

  /**
   * The overview pages (generalised zoning) whose box meets `box`, with the zone names they number: runs of cells, or
   * in a pack that stores its street blocks, `blocks`.
   */
  overviewFor(
    box: BBox,
    signal?: AbortSignal,
  ): Promise<{ pages: OverviewPage[]; blocks: BlockPage[]; zones: string[]; refused: RefusedPage[] }> {
    return this.run(async (s) => {
      const entries = s.root.meta.overview?.pages ?? [];
      const nos = entries.flatMap((e, i) =>
        e.box[0] <= box[2] && e.box[2] >= box[0] && e.box[1] <= box[3] && e.box[3] >= box[1] ? [i] : [],
      );
      const { pages, refused } = await this.load(s, nos, "overview", signal);
      const out = [...pages.values()].filter((p): p is OverviewPage => "ns" in p).sort((a, b) => a.no - b.no);
      const blocks = [...pages.values()].filter((p): p is BlockPage => "geometry" in p).sort((a, b) => a.no - b.no);
      return { pages: out, blocks, zones: s.root.meta.zoneDict, refused };
    }, signal);
  }

  /**
   * The decoded pages whose box meets `box` (a point is a box of no size), for callers that read columns directly.
   * `maxReads` bounds the range requests: the gaps between the pages needed are read through (a tile: 2).
   */
  pagesForBox(box: BBox, signal?: AbortSignal, opts: { maxReads?: number } = {}): Promise<PageSet> {
    const warm = this.cachedBox(box);
    if (warm) return Promise.resolve(warm);
    const q = async (s: Snapshot) => ({
      snapshot: s,
      ...(await this.dataPages(s, this.pagesInBox(s, box), signal, opts)),
    });
    return this.readingRoot(q, (s) => this.cachedPages(s, this.pagesInBox(s, box)) === null, signal);
  }

  /**
   * The bytes of a tile the builder stored whole (null: stored empty), in one request; undefined when this version
   * of the pack does not store it. A stale root is revalidated by that request, as a tile's page reads do.
   */
  storedTile(z: number, x: number, y: number, signal?: AbortSignal): Promise<Uint8Array | null | undefined> {
    const slot = (s: Snapshot) => s.root.storedTiles.get(tileKey(z, x, y));
    // A root past its time to live that does not list the tile is revalidated by the pages' reads, not by a read here.
    const stale = this.expiredRoot();
    if (stale && slot(stale.value) === undefined) return Promise.resolve(undefined);
    const q = async (s: Snapshot) => {
      const i = slot(s);
      return i === undefined ? undefined : readStoredTile(this.source, s, i, signal);
    };
    return this.readingRoot(q, (s) => slot(s) !== undefined, signal);
  }

  // Runs q on the root; past its time to live, when q reads anyway (`reads`), q's reads carry the root's etag and
  // revalidate it with no read of its own (a tile stays at 2 requests).
  private readingRoot<T>(q: (s: Snapshot) => Promise<T>, reads: (s: Snapshot) => boolean, signal?: AbortSignal) {
    const stale = this.expiredRoot();
    if (stale && reads(stale.value)) {
      return q(stale.value).then(
        (out) => {
          if (roots.get(this.source.key) === stale.memo) stale.memo.checkedAt = this.now();
          return out;
        },
        async (e: unknown) => {
          if (!(e instanceof EtagMismatchError)) throw e;
          return q(await this.refresh(stale.value, signal));
        },
      );
    }
    return this.run(q, signal);
  }

  /**
   * The root to plan reads from: the memoised one even past its time to live (the reads planned from it carry its
   * etag and revalidate it), else the root read or revalidated as snapshot() does.
   */
  planningSnapshot(signal?: AbortSignal): Promise<Snapshot> {
    const stale = this.expiredRoot();
    return stale ? Promise.resolve(stale.value) : this.snapshot(signal);
  }

  // The memoised root past its time to live (of the etag this reader was told, if any), else null.
  private expiredRoot(): { memo: Memo; value: Snapshot } | null {
    const memo = roots.get(this.source.key);
    if (!memo) return null;
    const { value } = memo;
    if (this.etag !== undefined && value.etag !== this.etag) return null;
    return this.now() - memo.checkedAt >= this.rootTtlMs ? { memo, value } : null;
  }

  /** The pages under `box` when the root is fresh and every page is cached, else null (no promise, no read). */
  cachedBox(box: BBox): PageSet | null {
    const s = this.current();
    if (!s) return null;
    const pages = this.cachedPages(s, this.pagesInBox(s, box));
    return pages ? { snapshot: s, pages, refused: [] } : null;
  }

  /** Pages, lots and bytes of data pages `nos` (distinct) of this snapshot, from its root alone. */
  measure(s: Snapshot, nos: readonly number[]): Omit<ReadCost, "ranges"> {
    return measurePages(s.root, nos);
  }

  /**
   * Plans reading data pages `nos` of this snapshot within what is left of `budget`, from the root alone: the plan
   * says what it costs (ranges, pages, lots, bytes) and, if it goes over a limit, which one; a plan within every
   * limit is spent from the budget. Nothing is read: the caller refuses an over plan in its own words, or reads it
   * (plan-reads.ts: whole, or range by range as each lands).
   */
  planPages(s: Snapshot, nos: readonly number[], budget: ReadBudget = new ReadBudget()): PagePlan {
    const { runs, ...planned } = planWithin(s.root, nos, budget, this.maxReadBytes);
    const plan: PagePlan = { pack: this, snapshot: s, ...planned };
    plannedRuns.set(plan, runs);
    return plan;
  }

  /**
   * A plan in at most `ranges` reads where one exists, else one read per run of consecutive pages: for reads that
   * help a request but need not be bounded (a read-ahead, a search's results read again), so never refused.
   */
  planUpTo(s: Snapshot, nos: readonly number[], ranges: number): PagePlan {
    const plan = this.planPages(s, nos, new ReadBudget({ ranges }));
    return plan.over === null ? plan : this.planPages(s, nos);
  }

  /**
   * The pages of range `k` of `plan` (this reader's), in that one request at most: pages another query cached
   * meanwhile are not read again. `keep: false` reads past the page cache (a scan of thousands of pages would evict
   * every other request's pages).
   */
  async readRange(plan: PagePlan, k: number, opts: PlanReadOptions = {}): Promise<PageSet> {
    const run = plannedRuns.get(plan)?.[k];
    if (plan.pack !== this || !run) throw new RangeError(`pack ${this.source.key}: no range ${k} in this plan`);
    const s = plan.snapshot;
    const { pages, missing } = this.fromCache(s, "page", run.pages);
    const offsets = s.root.pageOffsets;
    const last = missing[missing.length - 1];
    const part =
      last === undefined
        ? []
        : [{ pages: missing, start: offsets[missing[0] as number] as number, end: offsets[last + 1] as number }];
    const read = await this.readRuns(s, "page", part, opts.keep ?? true, opts.signal);
    for (const [no, page] of read.pages) pages.set(no, page);
    const out: DecodedPage[] = [];
    for (const p of pages.values()) if (isDataPage(p)) out.push(p);
    out.sort((a, b) => a.no - b.no);
    return { snapshot: s, pages: out, refused: read.refused };
  }

  /**
   * Columns `names` of the plan's pages, every range at once: cached pages as they are, the rest decoded without
   * geometry and never cached (a search's results: a few lots' facts from each of many pages). Refused when over.
   */
  async readColumns(
    plan: PagePlan,
    names: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<{ pages: PageColumns[]; refused: RefusedPage[] }> {
    refuseOver(plan);
    const runs = plannedRuns.get(plan);
    if (plan.pack !== this || !runs) throw new RangeError(`pack ${this.source.key}: not this reader's plan`);
    const s = plan.snapshot;
    const { root } = s;
    const pages: PageColumns[] = [];
    const refused: RefusedPage[] = [];
    const readRun = async (run: Run) => {
      const { pages: cached, missing } = this.fromCache(s, "page", run.pages);
      for (const p of cached.values()) if (isDataPage(p)) pages.push(p);
      const first = missing[0];
      const last = missing[missing.length - 1];
      if (first === undefined || last === undefined) return;
      const start = root.pageOffsets[first] as number;
      const data = await this.readSpan(s, "page", start, root.pageOffsets[last + 1] as number, first, signal);
      for (const no of missing) {
        const bytes = data.subarray(
          (root.pageOffsets[no] as number) - start,
          (root.pageOffsets[no + 1] as number) - start,
        );
        try {
          pages.push(
            decodePageColumns(
              bytes,
              no,
              root.pageCrcs[no] as number,
              root.meta.columns,
              s.key,
              names,
              root.pageCounts[no],
            ),
          );
        } catch (e) {
          if (!(e instanceof PageRefusedError)) throw e;
          this.log(e.message);
          refused.push({ key: s.key, page: e.page, message: e.message });
        }
      }
    };
    await Promise.all(runs.map(readRun));
    return { pages: pages.sort((a, b) => a.no - b.no), refused };
  }

  /** The bytes of one read at most (a build surveys its stored tiles with the same bound). */
  get readBytesLimit(): number {
    return this.maxReadBytes;
  }

  /** The page cache's budget in bytes (a read-ahead larger than a share of it would be evicted before its use). */
  get cacheBytesLimit(): number {
    return this.cache.maxBytes;
  }

  /** The decoded page(s) the lot-id index names for this id (none when the index has no such hash). */
  pagesForLot(id: string, signal?: AbortSignal): Promise<PageSet> {
    return this.run(async (s) => {
      const nos = await this.lotPageNumbers(s, id, signal);
      const { pages, refused } = await this.dataPages(s, nos.pages, signal);
      return { snapshot: s, pages, refused: [...nos.refused, ...refused] };
    }, signal);
  }

  private async lotPageNumbers(s: Snapshot, id: string, signal?: AbortSignal) {
    const h = lotIdHash(lotKey(id));
    const first = s.root.indexFirstHash;
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((first[mid] as number) <= h) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return { pages: [] as number[], refused: [] as RefusedPage[] };
    const idx = await this.load(s, [lo - 1], "index", signal);
    const ip = idx.pages.get(lo - 1);
    return { pages: ip && isIndexPage(ip) ? pagesForHash(ip, h) : [], refused: idx.refused };
  }

  /** Features whose polygon contains the point (even-odd, holes excluded). */
  featuresAt(lon: number, lat: number, signal?: AbortSignal): Promise<QueryResult> {
    return this.run(async (s) => {
      const { pages, refused } = await this.dataPages(s, this.pagesInBox(s, [lon, lat, lon, lat]), signal);
      const features: Hit[] = [];
      for (const page of pages) {
        const ids = searchPage(page, lon, lat, lon, lat).sort((a, b) => a - b);
        for (const i of ids) if (pointInFeature(page, i, lon, lat)) features.push(this.hit(s, page, i));
      }
      return { features, refused };
    }, signal);
  }

  /** Features whose bounding box meets `box` [w, s, e, n]. */
  featuresInBox(box: BBox, signal?: AbortSignal): Promise<QueryResult> {
    return this.run(async (s) => {
      const { pages, refused } = await this.dataPages(s, this.pagesInBox(s, box), signal);
      const features: Hit[] = [];
      for (const page of pages) {
        const ids = searchPage(page, box[0], box[1], box[2], box[3]).sort((a, b) => a - b);
        for (const i of ids) {
          // The index's grid rounds outward; the exact vertex box decides.
          const [minX, minY, maxX, maxY] = featureBBox(page, i);
          if (minX <= box[2] && maxX >= box[0] && minY <= box[3] && maxY >= box[1]) features.push(this.hit(s, page, i));
        }
      }
      return { features, refused };
    }, signal);
  }

  /** The lot(s) with this id: the root, one lot-id index page, then the data page it names. */
  byLotId(id: string, signal?: AbortSignal): Promise<QueryResult> {
    return this.run(async (s) => {
      const column = s.root.meta.lotIdColumn;
      if (column === null) throw new PagedPackError(s.key, `pack ${s.key} has no lot-id index`);
      const c = s.root.meta.columns.findIndex((x) => x.name === column);
      const key = lotKey(id);
      const nos = await this.lotPageNumbers(s, id, signal);
      const { pages, refused: pageRefused } = await this.dataPages(s, nos.pages, signal);
      const refused = [...nos.refused, ...pageRefused];
      const features: Hit[] = [];
      for (const page of pages) {
        for (let i = 0; i < page.count; i++) {
          const v = pageValue(page, c, i);
          if (typeof v === "string" && lotKey(v) === key) features.push(this.hit(s, page, i));
        }
      }
      return { features, refused };
    }, signal);
  }
}

/** Opens a pack: reads (or reuses the isolate's memo of) its header and root. */
export async function openPack(source: Source, opts: ReaderOptions = {}): Promise<PagedPack> {
  const pack = new PagedPack(source, opts);
  const s = await pack.snapshot();
  if (opts.etag !== undefined && s.etag !== opts.etag) await pack.refresh(s);
  return pack;
}
