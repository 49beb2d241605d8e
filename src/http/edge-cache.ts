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
