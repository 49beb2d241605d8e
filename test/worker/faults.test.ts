// Faults through the real app: each dependency unreachable or slow (a local server that accepts and never
// answers) gives the spec's message within the stated timeout, writes nothing half-way, and ends streams with an error.
import { fetchWith } from "./helpers/app.ts";
import { until } from "./helpers/wait.ts";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { resetPublicPacks } from "../../src/packs/registry.ts";
import { mintToken } from "./helpers/auth.ts";
import { type TestOrg, createTeamOrg, ledgerState, uniqueEmail, withDb } from "./helpers/billing.ts";
import { chunksOf } from "./helpers/chat.ts";

const CLOSED = "http://127.0.0.1:1";
const SLOW = `http://127.0.0.1:${inject("tarpitPort")}`;
const BILLING_DOWN = { detail: "Billing service unavailable" };

/** `fn`'s result and how long it took, in ms. */
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const out = await fn();
  return [out, Date.now() - started];
}

const newOrg = (credits = 20): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits }));

async function expectLedgerUntouched(orgId: string, credits: number): Promise<void> {
  const state = await withDb((db) => ledgerState(db, orgId));
  expect(state.cached).toBe(credits);
  expect(state.sum).toBe(credits);
  expect(state.entries.map((e) => e.type)).toEqual(["adjustment"]);
}

describe("the database", () => {
  it("slow (connects, never answers): 503 Billing service unavailable within the pool's 5 s connect timeout", async () => {
    const token = await mintToken({ sub: crypto.randomUUID(), email: uniqueEmail("slowdb") });
    const [res, ms] = await timed(() =>
      fetchWith({ DB_WS_PROXY: SLOW.replace("http://", "") }, "/billing/credits/balance", {
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(BILLING_DOWN);
    expect(ms).toBeGreaterThanOrEqual(4_500);
    expect(ms).toBeLessThan(9_000);
  });
});

describe("the identity provider", () => {
  it("slow: POST /billing/invite is 503 naming the identity provider within its 5 s timeout, and leaves no invitation", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const token = await mintToken({ sub: org.users.owner.userId, email: org.users.owner.email, authUrl: SLOW });
    const [res, ms] = await timed(() =>
      fetchWith({ SUPABASE_URL: SLOW }, "/billing/invite", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail("never") }),
      }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Identity provider unavailable" });
    expect(ms).toBeLessThan(12_000);
    const rows = await withDb((db) => db.execute(sql`select 1 from invitations where org_id = ${org.orgId}`));
    expect(rows.rows).toHaveLength(0);
  });
});

// R2 has no wire protocol to stand in for: the binding is replaced by one whose calls reject as R2's do on an outage.
const brokenBucket = new Proxy(
  {},
  {
    get: () => () => Promise.reject(new Error("R2 internal error (simulated outage)")),
  },
);

describe("R2", () => {
  it("unreachable: GET /packs and GET /geocode are 503 Service unavailable, not 500", async () => {
    resetPublicPacks();
    const org = await newOrg();
    const headers = { Authorization: `Bearer ${org.users.member.token}` };
    for (const path of ["/packs", "/geocode?suburb=Epping"]) {
      const res = await fetchWith({ PACKS: brokenBucket }, path, { headers });
      expect(res.status, path).toBe(503);
      expect(await res.json(), path).toEqual({ detail: "Service unavailable" });
    }
    resetPublicPacks();
  });

  it("unreachable during a batch: no charge stays (ledger untouched) and the answer is 503 or a stream ending in error", async () => {
    resetPublicPacks();
    const org = await newOrg();
    const form = new FormData();
    form.set("file", new File(["latitude,longitude\n-33.77,151.08\n"], "sites.csv", { type: "text/csv" }));
    const res = await fetchWith({ PACKS: brokenBucket }, "/batch/upload", {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${org.users.member.token}` },
    });
    resetPublicPacks();
    if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
      const text = await res.text();
      expect(text.trimEnd().split("\n\n").at(-1)).toMatch(/^event: error\n/);
      const state = await withDb((db) => ledgerState(db, org.orgId));
      expect(state.cached).toBe(20);
      expect(state.sum).toBe(20);
    } else {
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: "Service unavailable" });
      await expectLedgerUntouched(org.orgId, 20);
    }
  });
});

describe("the model provider", () => {
  it("unreachable: the chat stream ends with an error part then [DONE], and the question is refunded", async () => {
    const org = await newOrg();
    const [res, ms] = await timed(() =>
      fetchWith(
        { LLM_API_URL: `${CLOSED}/v1` },
        "/chat",
        {
          method: "POST",
          headers: { Authorization: `Bearer ${org.users.member.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ question: "Is Epping flood prone?" }),
        },
        { waitForBackground: false },
      ).then(async (r) => chunksOf(r)),
    );
    const chunks = res;
    expect(ms).toBeLessThan(10_000);
    expect(chunks.filter((c) => c.type === "error")).toHaveLength(1);
    expect(chunks.at(-1)?.type).toBe("[DONE]");
    const state = await until(
      "the refund",
      () => withDb((db) => ledgerState(db, org.orgId)),
      (s) => s.cached === 20,
    );
    expect(state.cached).toBe(20);
    expect(state.sum).toBe(20);
  });
});

describe("the payment processor", () => {
  it("slow: POST /billing/checkout is 503 within its 10 s timeout (2 retries) and stores no customer", async () => {
    const org = await newOrg(0);
    const [res, ms] = await timed(() =>
      fetchWith({ STRIPE_API_BASE: SLOW }, "/billing/checkout", {
        method: "POST",
        headers: { Authorization: `Bearer ${org.users.owner.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ tier_id: "starter" }),
      }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(BILLING_DOWN);
    expect(ms).toBeLessThan(40_000);
    const rows = await withDb((db) =>
      db.execute(sql`select payment_customer_id from organisations where id = ${org.orgId}`),
    );
    expect(rows.rows[0]?.payment_customer_id ?? null).toBeNull();
  }, 60_000);
});
