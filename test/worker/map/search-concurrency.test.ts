// At most two site searches at once per organisation, through the slots of its rate-limit object: a third waits,
// then is a 429 with Retry-After and the spec's envelope; another organisation is not held; slots are given back on
// success and on error, and a slot a crashed isolate never gave back lapses.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { CONCURRENCY } from "../../../src/request/concurrency.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

const GATE = "heavy";
const policy = CONCURRENCY.heavy;
const stubOf = (subject: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));

let a: TestOrg;
let b: TestOrg;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [a, b] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  // Warm: the demo's facts table is built once per isolate, and in workerd tests the objects share that isolate.
  expect((await search(b)).status).toBe(200);
}, 60_000);

const search = (org: TestOrg, body: unknown = { area: { suburb: "Newtown" }, limit: 1 }) =>
  SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...bearer(org.users.member.token), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Takes both of the organisation's slots, as two searches in flight would. */
async function occupy(org: TestOrg): Promise<string[]> {
  const stub = stubOf(`org:${org.orgId}`);
  const leases: string[] = [];
  for (let k = 0; k < policy.max; k++) {
    const d = await stub.acquire(GATE, policy);
    if (!d.granted) throw new Error("slot not granted");
    leases.push(d.lease);
  }
  return leases;
}

async function freeAll(org: TestOrg, leases: string[]): Promise<void> {
  for (const l of leases) await stubOf(`org:${org.orgId}`).release(GATE, l);
}

describe("the semaphore", () => {
  it("grants `max` slots, refuses the next without waiting, and gives a released slot to the next caller", async () => {
    const stub = stubOf(`test:${crypto.randomUUID()}`);
    const p = { max: 2, waitMs: 0, leaseMs: 60_000 };
    const one = await stub.acquire("g", p);
    const two = await stub.acquire("g", p);
    expect(one.granted && two.granted).toBe(true);
    expect(await stub.acquire("g", p)).toEqual({ granted: false, retryAfter: 1 });
    // Another gate of the same subject is its own pool.
    expect((await stub.acquire("other", p)).granted).toBe(true);
    if (one.granted) await stub.release("g", one.lease);
    expect((await stub.acquire("g", p)).granted).toBe(true);
  });

  it("a waiting caller takes the slot the moment a holder releases it", async () => {
    const stub = stubOf(`test:${crypto.randomUUID()}`);
    const p = { max: 1, waitMs: 10_000, leaseMs: 60_000 };
    const held = await stub.acquire("g", p);
    const waiting = stub.acquire("g", p);
    while ((await stub.slots("g")).waiting === 0) await new Promise((r) => setTimeout(r, 10));
    if (held.granted) await stub.release("g", held.lease);
    expect((await waiting).granted).toBe(true);
  });

  it("a lease never released (its isolate crashed) lapses after leaseMs", async () => {
    const stub = stubOf(`test:${crypto.randomUUID()}`);
    const p = { max: 2, waitMs: 0, leaseMs: 60_000 };
    const t0 = Date.now();
    await stub.acquire("g", p, t0);
    await stub.acquire("g", p, t0);
    expect((await stub.acquire("g", p, t0 + 59_999)).granted).toBe(false);
    expect((await stub.acquire("g", p, t0 + 60_000)).granted).toBe(true);
  });
});

describe("POST /sites/search, two at once per organisation", () => {
  it("a third search of one organisation waits, then is a 429 with Retry-After; another organisation's is served", async () => {
    const leases = await occupy(a);
    try {
      const [held, other] = await Promise.all([search(a), search(b)]);
      expect(other.status).toBe(200);
      expect(held.status).toBe(429);
      const body = await held.json<{ detail: string; retry_after: number }>();
      expect(body).toEqual({ detail: "Rate limit exceeded", retry_after: 1 });
      expect(held.headers.get("retry-after")).toBe("1");
      // It waited in line: the refusal came from the wait running out, and left no slot taken.
      expect(await stubOf(`org:${a.orgId}`).slots(GATE)).toEqual({ held: 2, waiting: 0 });
    } finally {
      await freeAll(a, leases);
    }
  });

  it("a third search held while two run is served as soon as one finishes", async () => {
    const leases = await occupy(a);
    try {
      const pending = search(a);
      const stub = stubOf(`org:${a.orgId}`);
      while ((await stub.slots(GATE)).waiting === 0) await new Promise((r) => setTimeout(r, 10));
      await stub.release(GATE, leases.shift() as string);
      expect((await pending).status).toBe(200);
    } finally {
      await freeAll(a, leases);
    }
  });

  it("gives its slot back when it answers, and when it fails", async () => {
    const stub = stubOf(`org:${b.orgId}`);
    expect((await search(b)).status).toBe(200);
    expect((await search(b, { area: { suburb: "Atlantis" } })).status).toBe(404);
    expect(await stub.slots(GATE)).toEqual({ held: 0, waiting: 0 });
  });
});
