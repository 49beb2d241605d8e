// GET /health and GET /billing/tiers are served from the edge cache (Cache API) within their TTL: a
// repeated call runs no handler, so it costs no R2 (or database) round trip.
import { SELF, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { resetPublicPacks } from "../../src/packs/registry.ts";
import { bearer, mintToken } from "../support/tokens.ts";

/** The R2 bucket binding, counting every call the app makes on it. */
function countingBucket(): { bucket: R2Bucket; calls: () => number } {
  let n = 0;
  const real = env.PACKS;
  const bucket = new Proxy(real, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { bucket, calls: () => n };
}

async function call(url: string, e: Env, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(new Request(url, { headers }), e, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

// A host of its own per test: the edge cache is shared by every test in the file's isolate.
const host = () => `https://${crypto.randomUUID()}.api.test`;

describe("edge cache", () => {
  it("GET /health twice: the second is a cache hit and reads nothing from R2", async () => {
    const r2 = countingBucket();
    const e = { ...env, PACKS: r2.bucket };
    const base = host();
    resetPublicPacks();
    const first = await call(`${base}/health`, e);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=5, s-maxage=5");
    const afterFirst = r2.calls();
    expect(afterFirst).toBeGreaterThan(0);
    // Forget the isolate's packs: only the edge cache can now spare the R2 read.
    resetPublicPacks();
    const second = await call(`${base}/health`, e);
    expect(second.status).toBe(200);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("cache-control")).toBe("public, max-age=5, s-maxage=5");
    expect(await second.json()).toEqual(await first.json());
    expect(r2.calls()).toBe(afterFirst);
    // A hit carries this request's id, not the stored one's.
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("GET /billing/tiers: a hit after the first call, private to the caller, and still authenticated", async () => {
    const base = host();
    const token = await mintToken();
    const first = await call(`${base}/billing/tiers`, env, bearer(token));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("private, max-age=60");
    const second = await call(`${base}/billing/tiers`, env, bearer(await mintToken()));
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("cache-control")).toBe("private, max-age=60");
    expect(await second.json()).toEqual(await first.json());
    const anonymous = await call(`${base}/billing/tiers`, env);
    expect(anonymous.status).toBe(401);
  });

  it("an error is never cached", async () => {
    const res = await SELF.fetch("https://api.test/billing/tiers");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-cache")).toBeNull();
  });
});
