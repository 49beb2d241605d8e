// Per-organisation rate limits: 429 with the spec's envelope and Retry-After, shared across users of one org.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit.ts";
import { bearer, mintToken } from "../support/tokens.ts";
import { createTeamOrg, withDb } from "./helpers/billing.ts";

const geocode = (token: string) => SELF.fetch("https://api.test/geocode?suburb=Atlantis", { headers: bearer(token) });

describe("rate limits", () => {
  it("the request after the limit is 429 {detail, retry_after} with Retry-After, for the whole organisation", async () => {
    const o = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const { limit } = RATE_LIMITS.geocode;
    for (let i = 0; i < limit; i++) {
      const res = await geocode(i % 2 === 0 ? o.users.owner.token : o.users.member.token);
      expect(res.status, `request ${i + 1}`).toBe(404);
    }
    const refused = await geocode(o.users.admin.token);
    expect(refused.status).toBe(429);
    const body = await refused.json<{ detail: string; retry_after: number }>();
    expect(body.detail).toBe("Rate limit exceeded");
    expect(body.retry_after).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBeLessThanOrEqual(RATE_LIMITS.geocode.windowS);
    expect(refused.headers.get("retry-after")).toBe(String(body.retry_after));
  });

  it("another organisation is not affected", async () => {
    const o = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    expect((await geocode(o.users.owner.token)).status).toBe(404);
  });

  it("the window resets", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${crypto.randomUUID()}`));
    const t0 = 1_000_000_000_000;
    expect((await stub.take("x", 2, 60, t0)).allowed).toBe(true);
    expect((await stub.take("x", 2, 60, t0 + 1)).allowed).toBe(true);
    const third = await stub.take("x", 2, 60, t0 + 2);
    expect(third).toMatchObject({ allowed: false, remaining: 0 });
    expect((await stub.take("x", 2, 60, t0 + 60_000)).allowed).toBe(true);
  });

  it("a successful response reports the limit and what remains", async () => {
    const res = await geocode(await mintToken());
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(RATE_LIMITS.geocode.limit));
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(RATE_LIMITS.geocode.limit - 1));
  });
});
