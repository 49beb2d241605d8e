// Token-bucket rate limits per organisation and route: 429 {detail, retry_after} with an exact Retry-After,
// the IETF draft's RateLimit headers, no charge on a 429, tenants apart, and the limiter's failure modes.
import { SELF, createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { RATE_LIMITS, type RateLimitName, bucketPolicy } from "../../src/request/rate-limit.ts";
import { bearer, mintToken } from "../support/tokens.ts";
import { type TestOrg, createTeamOrg, ledgerState, withDb } from "./helpers/billing.ts";
import { databaseDown } from "./helpers/faults.ts";
import { membershipCache } from "../../src/orgs/membership-cache.ts";

const api = "https://api.test";
const geocode = (token: string) => SELF.fetch(`${api}/geocode?suburb=Atlantis`, { headers: bearer(token) });
const orgStub = (orgId: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`org:${orgId}`));

/** Empties the organisation's bucket for `name` (leaving `leave` tokens), as earlier requests would have. */
async function drain(orgId: string, name: RateLimitName, leave = 0): Promise<void> {
  const stub = orgStub(orgId);
  // Stamped a minute ahead: on a loaded machine the drain itself takes long enough to refill tokens (2 a second
  // for geocode), and a request stamped earlier than the bucket's last take sees no refill.
  const at = Date.now() + 60_000;
  for (let i = 0; i < RATE_LIMITS[name].burst - leave; i++) await stub.take(name, bucketPolicy(name), at);
}

const costly: { name: RateLimitName; method: string; path: string }[] = [
  { name: "batch", method: "POST", path: "/batch/upload" },
  { name: "report", method: "POST", path: "/report/generate" },
  { name: "chat", method: "POST", path: "/chat" },
  { name: "checkout", method: "POST", path: "/billing/checkout" },
  { name: "invite", method: "POST", path: "/billing/invite" },
];

const post = (path: string, token: string, app?: { env: Env }) => {
  const req = new Request(`${api}${path}`, {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: "{}",
  });
  return app ? Promise.resolve(createApp().fetch(req, app.env, createExecutionContext())) : SELF.fetch(req);
};

async function org(credits = 5): Promise<TestOrg> {
  return withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
}

describe("the token bucket", () => {
  it("refills at its rate, and Retry-After is exact to the second", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${crypto.randomUUID()}`));
    const policy = { burst: 2, refillPerS: 0.5 };
    const t0 = 1_000_000_000_000;
    expect(await stub.take("x", policy, t0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await stub.take("x", policy, t0)).toMatchObject({ allowed: true, remaining: 0, reset: 4 });
    const refused = await stub.take("x", policy, t0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 2 });
    // One millisecond before Retry-After has passed there is still no token; at it there is one.
    expect(await stub.take("x", policy, t0 + 1999)).toMatchObject({ allowed: false, retryAfter: 1 });
    expect(await stub.take("x", policy, t0 + 2000)).toMatchObject({ allowed: true });
    // Refill stops at the burst.
    expect(await stub.take("x", policy, t0 + 3_600_000)).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe("rate limits through the app", () => {
  for (const r of costly) {
    it(`${r.method} ${r.path}: an empty bucket is 429 with the envelope, Retry-After and RateLimit headers, before the body is read`, async () => {
      const o = await org();
      await drain(o.orgId, r.name);
      const res = await post(r.path, o.users.owner.token);
      expect(res.status).toBe(429);
      const body = await res.json<{ detail: string; retry_after: number }>();
      expect(body.detail).toBe("Rate limit exceeded");
      const perToken = RATE_LIMITS[r.name].windowS / RATE_LIMITS[r.name].burst;
      expect(body.retry_after).toBeGreaterThanOrEqual(Math.max(1, Math.floor(perToken) - 2));
      expect(body.retry_after).toBeLessThanOrEqual(Math.ceil(perToken));
      expect(res.headers.get("retry-after")).toBe(String(body.retry_after));
      const { burst, windowS } = RATE_LIMITS[r.name];
      expect(res.headers.get("ratelimit-policy")).toBe(`"${r.name}";q=${burst};w=${windowS}`);
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"${r.name}";r=0;t=\\d+$`));
    });
  }

  it("a 429 never charges: the ledger is unchanged", async () => {
    const o = await org(5);
    const before = await withDb((db) => ledgerState(db, o.orgId));
    for (const r of costly) await drain(o.orgId, r.name);
    for (const r of costly) expect((await post(r.path, o.users.owner.token)).status, r.path).toBe(429);
    const after = await withDb((db) => ledgerState(db, o.orgId));
    expect(after).toEqual(before);
    expect(after.cached).toBe(5);
  });

  it("one organisation's empty bucket does not throttle another", async () => {
    const a = await org();
    const b = await org();
    await drain(a.orgId, "geocode");
    expect((await geocode(a.users.member.token)).status).toBe(429);
    expect((await geocode(b.users.member.token)).status).toBe(404);
  });

  it("a user before post-signup has a bucket of their own, reported in RateLimit-Policy and RateLimit", async () => {
    const res = await geocode(await mintToken());
    expect(res.status).toBe(404);
    expect(res.headers.get("ratelimit-policy")).toBe('"geocode";q=120;w=60');
    expect(res.headers.get("ratelimit")).toBe('"geocode";r=119;t=1');
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("119");
  });

  it("130 concurrent geocodes of one organisation while membership reads fail: its one budget still holds", async () => {
    const o = await org();
    // Each user has been seen once while the database answered: the limiter knows their organisation.
    for (const u of Object.values(o.users)) expect((await geocode(u.token)).status).toBe(404);
    await drain(o.orgId, "geocode", 20);
    // As in an isolate that has not seen these users: the membership must come from the database, which is down.
    for (const u of Object.values(o.users)) membershipCache.forget(u.userId);
    const broken = { env: { ...env, ...databaseDown(env) } };
    const tokens = Object.values(o.users).map((u) => u.token);
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 130 }, async (_, i) => {
        const req = new Request(`${api}/geocode?suburb=Atlantis`, { headers: bearer(tokens[i % 3] ?? "") });
        return (await createApp().fetch(req, broken.env, createExecutionContext())).status;
      }),
    );
    const elapsedS = (Date.now() - started) / 1000;
    const served = statuses.filter((s) => s === 404).length;
    expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
    // Per-user keys would have given each of the three users a full bucket of 120: all 130 served.
    expect(served).toBeLessThanOrEqual(20 + Math.ceil(elapsedS * bucketPolicy("geocode").refillPerS) + 1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

describe("the limiter unreachable", () => {
  // A namespace whose objects cannot be reached, as when the Durable Object is down.
  const down = {
    idFromName: (name: string) => env.RATE_LIMITER.idFromName(name),
    get: () => ({
      take: () => Promise.reject(new Error("Durable Object unreachable")),
      takeForUser: () => Promise.reject(new Error("Durable Object unreachable")),
      setOrg: () => Promise.reject(new Error("Durable Object unreachable")),
    }),
  } as unknown as Env["RATE_LIMITER"];
  const limiterDown = { env: { ...env, RATE_LIMITER: down } };

  it("geocode (a read) fails open: served", async () => {
    const o = await org();
    const res = await createApp().fetch(
      new Request(`${api}/geocode?suburb=Atlantis`, { headers: bearer(o.users.member.token) }),
      limiterDown.env,
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Suburb not found: Atlantis" });
  });

  for (const r of costly) {
    it(`${r.method} ${r.path} (charged or costly) fails closed: 503 Service unavailable, nothing charged`, async () => {
      const o = await org(5);
      const res = await post(r.path, o.users.owner.token, limiterDown);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: "Service unavailable" });
      expect((await withDb((db) => ledgerState(db, o.orgId))).cached).toBe(5);
    });
  }
});
