import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("GET /health", () => {
  it("is public and reports loaded packs", async () => {
    const res = await SELF.fetch("https://api.test/health");
    expect(res.status).toBe(200);
    const body = await res.json<{ status: string; packs_loaded: number; world: unknown }>();
    expect(body.status).toBe("ok");
    expect(body.packs_loaded).toBe(0);
    // No world is being built here (test/worker/map/world-building.test.ts has one that is).
    expect(body.world).toEqual({ state: "ready" });
    expect(res.headers.get("cache-control")).toContain("max-age=5");
  });

  it("unknown routes are 404 Not found", async () => {
    const res = await SELF.fetch("https://api.test/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });
});
