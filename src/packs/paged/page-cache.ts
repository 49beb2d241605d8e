// One cache per isolate of decoded pages, bounded in bytes, least recently used first out, with shared in-flight loads.
import type { LotIndexPage } from "./lot-index.ts";
import type { DecodedPage } from "./page.ts";
import type { OverviewPage } from "./overview.ts";

export const DEFAULT_PAGE_CACHE_BYTES = 32 * 1024 * 1024;

export type CachedPage = DecodedPage | LotIndexPage | OverviewPage;

// What kind of page an id names: data, lot-id index or overview pages share one numbering per object.
export type PageKind = "page" | "index" | "overview";
const KIND: Record<PageKind, number> = { page: 0, index: 1, overview: 2 };

/** A page's id within its object and etag: small integers, so a warm lookup builds no string key. */
export function pageId(kind: PageKind, no: number): number {
  return no * 4 + KIND[kind];
}

type Entry = { page: CachedPage; bytes: number; used: number; key: string; etag: string; id: number };

// Evicting down to this share of the budget spares a sort on every insert once the cache is full.
const EVICT_TO = 0.9;

export class PageCache {
  readonly maxBytes: number;
  // Object key -> etag -> page id: lookups use strings the caller already holds, hashed once by the engine.
  private readonly objects = new Map<string, Map<string, Map<number, Entry>>>();
  private readonly inflight = new Map<string, Map<string, Map<number, Promise<CachedPage>>>>();
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
    const e = this.objects.get(key)?.get(etag)?.get(id);
    if (!e) return undefined;
    e.used = ++this.clock;
    this.hits++;
    return e.page;
  }

  set(key: string, etag: string, id: number, page: CachedPage): void {
    this.delete(key, etag, id);
    if (page.bytes > this.maxBytes) return;
    let byEtag = this.objects.get(key);
    if (!byEtag) {
      byEtag = new Map();
      this.objects.set(key, byEtag);
    }
    let pages = byEtag.get(etag);
    if (!pages) {
      pages = new Map();
      byEtag.set(etag, pages);
    }
    pages.set(id, { page, bytes: page.bytes, used: ++this.clock, key, etag, id });
    this.total += page.bytes;
    this.count++;
    if (this.total > this.maxBytes) this.evict();
  }

  /** Counts `bytes` more against a cached page (structures built from it later, such as its v1 view). */
  grow(key: string, etag: string, id: number, bytes: number): void {
    const e = this.objects.get(key)?.get(etag)?.get(id);
    if (!e) return;
    e.bytes += bytes;
    this.total += bytes;
    if (this.total > this.maxBytes) this.evict();
  }

  private delete(key: string, etag: string, id: number): void {
    const byEtag = this.objects.get(key);
    const pages = byEtag?.get(etag);
    const e = pages?.get(id);
    if (!byEtag || !pages || !e) return;
    pages.delete(id);
    this.total -= e.bytes;
    this.count--;
    if (pages.size === 0) byEtag.delete(etag);
    if (byEtag.size === 0) this.objects.delete(key);
  }

  private evict(): void {
    const all: Entry[] = [];
    for (const byEtag of this.objects.values()) for (const pages of byEtag.values()) all.push(...pages.values());
    all.sort((a, b) => a.used - b.used);
    const target = this.maxBytes * EVICT_TO;
    for (const e of all) {
      if (this.total <= target) break;
      this.delete(e.key, e.etag, e.id);
    }
  }

  pending(key: string, etag: string, id: number): Promise<CachedPage> | undefined {
    return this.inflight.get(key)?.get(etag)?.get(id);
  }

  /** Registers a load so concurrent requests for the same page share it; the result is cached when it succeeds. */
  share(key: string, etag: string, id: number, load: Promise<CachedPage>): Promise<CachedPage> {
    this.misses++;
    let byEtag = this.inflight.get(key);
    if (!byEtag) {
      byEtag = new Map();
      this.inflight.set(key, byEtag);
    }
    let loads = byEtag.get(etag);
    if (!loads) {
      loads = new Map();
      byEtag.set(etag, loads);
    }
    const done = (): void => {
      loads.delete(id);
      if (loads.size === 0 && byEtag.get(etag) === loads) byEtag.delete(etag);
      if (byEtag.size === 0 && this.inflight.get(key) === byEtag) this.inflight.delete(key);
    };
    const p = load.then(
      (page) => {
        this.set(key, etag, id, page);
        done();
        return page;
      },
      (e: unknown) => {
        done();
        throw e;
      },
    );
    loads.set(id, p);
    return p;
  }
}

let isolateCache: PageCache | null = null;

/** The isolate's cache; the first caller's budget (PACK_CACHE_BYTES) sets its size. */
export function isolatePageCache(maxBytes?: number): PageCache {
  if (!isolateCache) isolateCache = new PageCache(maxBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  return isolateCache;
}
