// One cache per isolate of decoded pages, bounded in bytes, least recently used first out; it holds resolved pages only.
import type { LotIndexPage } from "./lot-index.ts";
import { type DecodedPage, GRID_HEAD_INTS, type PageGrid } from "./page.ts";
import type { OverviewPage } from "./overview.ts";
import type { BlockPage } from "./block-overview.ts";

export const DEFAULT_PAGE_CACHE_BYTES = 32 * 1024 * 1024;

export type CachedPage = DecodedPage | LotIndexPage | OverviewPage | BlockPage;

// What kind of page an id names: data, lot-id index or overview pages share one numbering per object.
export type PageKind = "page" | "index" | "overview";
const KIND: Record<PageKind, number> = { page: 0, index: 1, overview: 2 };

/** A page's id within its object and etag: small integers, so a warm lookup builds no string key. */
export function pageId(kind: PageKind, no: number): number {
  return no * 4 + KIND[kind];
}

type Entry = { page: CachedPage; bytes: number; used: number; table: PageTable; id: number };

// Evicting down to this share of the budget spares a sort on every insert once the cache is full.
const EVICT_TO = 0.9;

/**
 * The cached pages of one object version. Beside the entries by page id it keeps, by data page number, each page
 * and its point grid once built (cleared with the entry) and when a warm lookup last used it: a point lookup holding
 * its snapshot's table reads arrays instead of hashing three keys and touching an entry per page. A table emptied
 * of pages is dropped and marked dead, so a holder asks the cache for the current one.
 */
export class PageTable {
  readonly key: string;
  readonly etag: string;
  readonly entries = new Map<number, Entry>();
  readonly pages: (DecodedPage | undefined)[] = [];
  readonly grids: (PageGrid | undefined)[] = [];
  // The clock at a warm lookup's last use of data page `no`; an entry's recency is the later of this and its own.
  stamps = new Float64Array(0);
  // Each held grid's header at GRID_HEAD_INTS * no: side by side, so a lookup reads it without the grid's own page.
  heads = new Int32Array(0);
  live = true;

  constructor(key: string, etag: string) {
    this.key = key;
    this.etag = etag;
  }
}

const DATA = KIND.page;

// When the entry was last used: by get (its own clock) or by a warm lookup (its table's stamp), whichever is later.
function lastUse(e: Entry): number {
  if ((e.id & 3) !== DATA) return e.used;
  return Math.max(e.used, e.table.stamps[e.id >> 2] ?? 0);
}

export class PageCache {
  readonly maxBytes: number;
  // Object key -> etag -> its pages: lookups use strings the caller already holds, hashed once by the engine.
  // Never a promise: a Worker's request may not await I/O begun by another, which hangs if that request is cancelled.
  private readonly objects = new Map<string, Map<string, PageTable>>();
  private total = 0;
  private count = 0;
  private clock = 0;
  hits = 0;
  misses = 0;

  constructor(maxBytes = DEFAULT_PAGE_CACHE_BYTES) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.count;
  }

  /** The cached page, marked most recently used (pages never expire by time: the etag retires a replaced object's). */
  get(key: string, etag: string, id: number): CachedPage | undefined {
    const e = this.objects.get(key)?.get(etag)?.entries.get(id);
    if (!e) return undefined;
    e.used = ++this.clock;
    this.hits++;
    return e.page;
  }

  /** The live table of this object version's pages, or undefined when none of its pages is cached. */
  table(key: string, etag: string): PageTable | undefined {
    return this.objects.get(key)?.get(etag);
  }

  /**
   * Data page `no`'s point grid from table `t`, the page marked most recently used exactly as get marks it;
   * undefined when the page is not cached or has no grid held yet (then get it and call holdGrid).
   */
  gridOf(t: PageTable, no: number): PageGrid | undefined {
    const g = t.grids[no];
    if (g === undefined) return undefined;
    t.stamps[no] = ++this.clock;
    this.hits++;
    return g;
  }

  /** Lets gridOf serve data page `no` once its grid is built, when `page` is the page this table holds. */
  holdGrid(t: PageTable, no: number, page: DecodedPage): void {
    const e = t.entries.get(pageId("page", no));
    if (!t.live || !e || e.page !== page || !page.grid) return;
    if (t.stamps.length <= no) {
      const size = Math.max(2 * t.stamps.length, no + 1, 16);
      const stamps = new Float64Array(size);
      stamps.set(t.stamps);
      t.stamps = stamps;
      const heads = new Int32Array(size * GRID_HEAD_INTS);
      heads.set(t.heads);
      t.heads = heads;
    }
    t.heads.set(page.grid.subarray(0, GRID_HEAD_INTS), no * GRID_HEAD_INTS);
    while (t.grids.length <= no) {
      t.grids.push(undefined);
      t.pages.push(undefined);
    }
    t.grids[no] = page.grid;
    t.pages[no] = page;
  }

  /** Caches a page just read and decoded (a miss: counted), replacing any of the same id. */
  set(key: string, etag: string, id: number, page: CachedPage): void {
    this.misses++;
    this.delete(key, etag, id);
    if (page.bytes > this.maxBytes) return;
    let byEtag = this.objects.get(key);
    if (!byEtag) {
      byEtag = new Map();
      this.objects.set(key, byEtag);
    }
    let t = byEtag.get(etag);
    if (!t) {
      t = new PageTable(key, etag);
      byEtag.set(etag, t);
    }
    t.entries.set(id, { page, bytes: page.bytes, used: ++this.clock, table: t, id });
    this.total += page.bytes;
    this.count++;
    if (this.total > this.maxBytes) this.evict();
  }

  /** Counts `bytes` more against a cached page (structures built from it later, such as its v1 view). */
  grow(key: string, etag: string, id: number, bytes: number): void {
    const e = this.objects.get(key)?.get(etag)?.entries.get(id);
    if (!e) return;
    e.bytes += bytes;
    this.total += bytes;
    if (this.total > this.maxBytes) this.evict();
  }

  private delete(key: string, etag: string, id: number): void {
    const byEtag = this.objects.get(key);
    const t = byEtag?.get(etag);
    const e = t?.entries.get(id);
    if (!byEtag || !t || !e) return;
    t.entries.delete(id);
    if ((id & 3) === DATA && id >> 2 < t.grids.length) {
      t.grids[id >> 2] = undefined;
      t.pages[id >> 2] = undefined;
    }
    this.total -= e.bytes;
    this.count--;
    if (t.entries.size === 0) {
      t.live = false;
      byEtag.delete(etag);
    }
    if (byEtag.size === 0) this.objects.delete(key);
  }

  private evict(): void {
    const all: { e: Entry; used: number }[] = [];
    for (const byEtag of this.objects.values())
      for (const t of byEtag.values()) for (const e of t.entries.values()) all.push({ e, used: lastUse(e) });
    all.sort((a, b) => a.used - b.used);
    const target = this.maxBytes * EVICT_TO;
    for (const { e } of all) {
      if (this.total <= target) break;
      this.delete(e.table.key, e.table.etag, e.id);
    }
  }
}

let isolateCache: PageCache | null = null;

/** The isolate's cache; the first caller's budget (PACK_CACHE_BYTES) sets its size. */
export function isolatePageCache(maxBytes?: number): PageCache {
  if (!isolateCache) isolateCache = new PageCache(maxBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  return isolateCache;
}
