// Short edge caching through the Cache API (caches.default) for responses that are the same for every
// caller: a hit is answered before the handler runs, so it costs no database or R2 round trip.
import { createMiddleware } from "hono/factory";
import type { HttpEnv } from "./http-env.ts";

// Per-request or per-caller headers that must never be replayed from the cache.
const NOT_STORED = ["Set-Cookie", "X-Request-Id", "Vary", "RateLimit", "RateLimit-Policy"];

/**
 * Serves GET 200 responses from the edge cache for `ttlS` seconds. `cacheControl` is what clients see
 * (e.g. `private` on an authenticated route, so shared caches never bypass its authentication).
 * Declare after the access middleware: a cached answer is only given to a caller who may have it.
 */
export function edgeCache(ttlS: number, cacheControl: string) {
  return createMiddleware<HttpEnv>(async function edgeCached(c, next) {
    const url = new URL(c.req.url);
    const key = new Request(`${url.origin}${url.pathname}${url.search}`, { method: "GET" });
    const cache = caches.default;
    const hit = await cache.match(key).catch(() => undefined);
    if (hit) {
      const res = new Response(hit.body, hit);
      res.headers.set("Cache-Control", cacheControl);
      res.headers.set("X-Cache", "HIT");
      for (const h of [...res.headers.keys()]) if (h.startsWith("access-control-")) res.headers.delete(h);
      c.res = res;
      return;
    }
    await next();
    if (c.req.method !== "GET" || c.res.status !== 200) return;
    const stored = new Response(c.res.clone().body, c.res);
    for (const h of NOT_STORED) stored.headers.delete(h);
    for (const h of [...stored.headers.keys()]) if (h.startsWith("access-control-")) stored.headers.delete(h);
    stored.headers.set("Cache-Control", `public, max-age=${ttlS}`);
    const put = cache
      .put(key, stored)
      .catch((err: unknown) => c.var.services.log.warn("edge cache put failed", { error: err }));
    try {
      c.executionCtx.waitUntil(put);
    } catch {
      await put;
    }
    c.res.headers.set("Cache-Control", cacheControl);
    c.res.headers.set("X-Cache", "MISS");
  });
}

/** The opaque part of an entity tag (`W/"x"` and `"x"` both give `"x"`), or null when it is not one. */
function opaqueTag(tag: string): string | null {
  const t = tag.startsWith("W/") ? tag.slice(2) : tag;
  return /^"[^"]*"$/.test(t) ? t : null;
}

/**
 * RFC 9110 §13.1.2: whether an `If-None-Match` header matches the current `etag`, so the answer is 304.
 * `*` matches any current representation; otherwise a comma-separated list of entity tags compared weakly
 * (`W/"a"` matches `"a"`). Tags are scanned as quoted strings, since a comma may sit inside one.
 */
export function ifNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const current = opaqueTag(etag);
  if (current === null) return false;
  let i = 0;
  while (i < header.length) {
    while (i < header.length && (header[i] === " " || header[i] === "\t" || header[i] === ",")) i++;
    const weak = header.startsWith("W/", i);
    const open = weak ? i + 2 : i;
    if (header[open] !== '"') return false; // Malformed: no match rather than a guess.
    const close = header.indexOf('"', open + 1);
    if (close < 0) return false;
    if (header.slice(open, close + 1) === current) return true;
    i = close + 1;
  }
  return false;
}

/** A body kept at the edge under `key` (a URL naming the content exactly), or undefined; a cache failure is a miss. */
export async function edgeBytes(key: string): Promise<ArrayBuffer | undefined> {
  const hit = await caches.default.match(new Request(key)).catch(() => undefined);
  return hit ? hit.arrayBuffer() : undefined;
}

/** Keeps `bytes` at the edge under `key` once the response is sent; a failed put only costs a later miss. */
export function keepAtEdge(
  key: string,
  bytes: Uint8Array,
  waitUntil: (work: Promise<unknown>) => void,
  maxAgeS = 86_400,
): void {
  const stored = new Response(bytes, { headers: { "Cache-Control": `public, max-age=${maxAgeS}` } });
  waitUntil(caches.default.put(new Request(key), stored).catch(() => {}));
}
