// One cache per isolate of decoded pages, bounded in bytes, least recently used first out, with shared in-flight loads.
import { ByteLru } from "../byte-lru.ts";
import type { LotIndexPage } from "./lot-index.ts";
import type { DecodedPage } from "./page.ts";
import type { OverviewPage } from "./overview.ts";

export const DEFAULT_PAGE_CACHE_BYTES = 32 * 1024 * 1024;

export type CachedPage = DecodedPage | LotIndexPage | OverviewPage;

export class PageCache {
  readonly maxBytes: number;
  private readonly lru: ByteLru<CachedPage>;
  private readonly inflight = new Map<string, Promise<CachedPage>>();
  hits = 0;
  misses = 0;

  constructor(maxBytes = DEFAULT_PAGE_CACHE_BYTES) {
    this.maxBytes = maxBytes;
    // Pages never expire by time: the etag in their key retires a replaced object's pages.
    this.lru = new ByteLru<CachedPage>(maxBytes, Number.POSITIVE_INFINITY);
  }

  static key(objectKey: string, etag: string, page: string | number): string {
    return `${objectKey}\u0000${etag}\u0000${page}`;
  }

  get bytes(): number {
    return this.lru.bytes;
  }

  get size(): number {
    return this.lru.keys().length;
  }

  get(key: string): CachedPage | undefined {
    const v = this.lru.get(key);
    if (v) this.hits++;
    return v;
  }

  set(key: string, page: CachedPage): void {
    this.lru.set(key, page, page.bytes);
  }

  pending(key: string): Promise<CachedPage> | undefined {
    return this.inflight.get(key);
  }

  /** Registers a load so concurrent requests for the same page share it; the result is cached when it succeeds. */
  share(key: string, load: Promise<CachedPage>): Promise<CachedPage> {
    this.misses++;
    const p = load.then(
      (page) => {
        this.set(key, page);
        this.inflight.delete(key);
        return page;
      },
      (e: unknown) => {
        this.inflight.delete(key);
        throw e;
      },
    );
    this.inflight.set(key, p);
    return p;
  }
}

let isolateCache: PageCache | null = null;

/** The isolate's cache; the first caller's budget (PACK_CACHE_BYTES) sets its size. */
export function isolatePageCache(maxBytes?: number): PageCache {
  if (!isolateCache) isolateCache = new PageCache(maxBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  return isolateCache;
}
