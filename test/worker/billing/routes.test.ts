// Credits, organisation, tiers and subscription routes through the real app.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { debit } from "../../../src/credits/ledger.ts";
import { DEMO_ORG, DEMO_USERS } from "../../../scripts/db/demo-seed.ts";
import { mintToken } from "../helpers/auth.ts";
import { call, createTeamOrg, withDb } from "../helpers/billing.ts";

const owner = DEMO_USERS[0];

describe("billing routes", () => {
  it("GET /billing/credits/balance: the seeded demo organisation", async () => {
    const res = await call("/billing/credits/balance", {
      token: await mintToken({ sub: owner.id, email: owner.email }),
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ org_id: string; balance: number; org_name: string }>();
    expect(body).toMatchObject({ org_id: DEMO_ORG.id, org_name: "Demo Team" });
    expect(typeof body.balance).toBe("number");
  });

  it("GET /billing/credits/balance and /billing/org for every role of an organisation", async () => {
    const org = await withDb((db) => createTeamOrg(db, { credits: 12.5, idpUsers: false }));
    for (const user of Object.values(org.users)) {
      const bal = await call("/billing/credits/balance", { token: user.token });
      expect(bal.status).toBe(200);
      expect(await bal.json()).toEqual({ org_id: org.orgId, balance: 12.5, org_name: org.name });
      const info = await call("/billing/org", { token: user.token });
      expect(info.status).toBe(200);
      const body = await info.json<Record<string, unknown>>();
      expect(body).toEqual({
        id: org.orgId,
        name: org.name,
        org_type: "team",
        slug: null,
        credit_balance: 12.5,
        payment_customer_id: null,
        created_at: expect.stringMatching(/Z$/),
      });
    }
  });

  it("a user without an organisation is told to call post-signup", async () => {
    const token = await mintToken({ sub: crypto.randomUUID(), email: "nobody@test.example" });
    for (const path of [
      "/billing/credits/balance",
      "/billing/org",
      "/billing/credits/transactions",
      "/billing/subscription",
      "/billing/org/members",
    ]) {
      const res = await call(path, { token });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ detail: "No organisation for this user: call POST /auth/post-signup first" });
    }
  });

  it("requires a valid token", async () => {
    const none = await call("/billing/credits/balance");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: "Not authenticated" });
    const expired = await call("/billing/credits/balance", {
      token: await mintToken({ sub: owner.id, expiresInS: -120 }),
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ detail: "Token expired" });
    const bad = await call("/billing/tiers", { token: "not-a-jwt" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ detail: "Invalid token" });
  });

  it("GET /billing/credits/transactions: newest first, at most limit, default 20", async () => {
    const org = await withDb(async (db) => {
      const o = await createTeamOrg(db, { credits: 30, idpUsers: false });
      for (let i = 0; i < 22; i++)
        await debit({
          db,
          orgId: o.orgId,
          amount: 0.5,
          idempotencyKey: `t${i}`,
          actionType: "chat",
          description: `q${i}`,
        });
      return o;
    });
    const token = org.users.member.token;
    const two = await call("/billing/credits/transactions?limit=2", { token });
    expect(two.status).toBe(200);
    const rows = await two.json<Record<string, unknown>[]>();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      org_id: org.orgId,
      user_id: null,
      amount: -0.5,
      balance_after: 19,
      type: "usage",
      description: "q21",
      expires_at: null,
      related_entity_id: null,
      action_type: "chat",
      created_at: expect.stringMatching(/Z$/),
      // A chat debit pays for no stored result (batches and reports do: test/worker/batch/stored-results.test.ts).
      result: null,
    });
    expect(rows[1]?.balance_after).toBe(19.5);
    const all = await (await call("/billing/credits/transactions", { token })).json<unknown[]>();
    expect(all).toHaveLength(20);
    expect((await (await call("/billing/credits/transactions?limit=100", { token })).json<unknown[]>()).length).toBe(
      23,
    );
  });

  it("GET /billing/credits/usage-history pages newest first with total and total_pages", async () => {
    const org = await withDb(async (db) => {
      const o = await createTeamOrg(db, { credits: 10, idpUsers: false });
      for (let i = 0; i < 4; i++) await debit({ db, orgId: o.orgId, amount: 1, idempotencyKey: `u${i}` });
      return o;
    });
    const token = org.users.admin.token;
    const first = await (await call("/billing/credits/usage-history?page_size=2", { token })).json<{
      transactions: { balance_after: number }[];
    }>();
    expect(first).toMatchObject({ page: 1, page_size: 2, total: 5, total_pages: 3 });
    expect(first.transactions.map((t) => t.balance_after)).toEqual([6, 7]);
    const last = await (await call("/billing/credits/usage-history?page=3&page_size=2", { token })).json<{
      transactions: { balance_after: number }[];
    }>();
    expect(last.transactions.map((t) => t.balance_after)).toEqual([10]);
    const beyond = await (await call("/billing/credits/usage-history?page=9&page_size=2", { token })).json<{
      transactions: unknown[];
      total: number;
    }>();
    expect(beyond).toMatchObject({ transactions: [], total: 5, page: 9 });
    const defaults = await (await call("/billing/credits/usage-history", { token })).json<Record<string, unknown>>();
    expect(defaults).toMatchObject({ page: 1, page_size: 25, total: 5, total_pages: 1 });
  });

  it.each([
    [
      "/billing/credits/transactions?limit=0",
      "limit",
      "0",
      "greater_than_equal",
      "Input should be greater than or equal to 1",
      { ge: 1 },
    ],
    [
      "/billing/credits/transactions?limit=101",
      "limit",
      "101",
      "less_than_equal",
      "Input should be less than or equal to 100",
      { le: 100 },
    ],
    [
      "/billing/credits/usage-history?page=0",
      "page",
      "0",
      "greater_than_equal",
      "Input should be greater than or equal to 1",
      { ge: 1 },
    ],
    [
      "/billing/credits/usage-history?page_size=0",
      "page_size",
      "0",
      "greater_than_equal",
      "Input should be greater than or equal to 1",
      { ge: 1 },
    ],
    [
      "/billing/credits/usage-history?page_size=101",
      "page_size",
      "101",
      "less_than_equal",
      "Input should be less than or equal to 100",
      { le: 100 },
    ],
  ])("%s is 422 with the validation body", async (path, field, input, type, msg, ctx) => {
    const res = await call(path, { token: await mintToken({ sub: owner.id, email: owner.email }) });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: [{ loc: ["query", field], msg, type, input, ctx }] });
  });

  it("a non-integer limit is 422 at query.limit", async () => {
    const token = await mintToken({ sub: owner.id });
    const frac = await call("/billing/credits/transactions?limit=1.5", { token });
    expect(frac.status).toBe(422);
    expect(await frac.json()).toEqual({
      detail: [
        {
          loc: ["query", "limit"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          type: "int_parsing",
          input: "1.5",
        },
      ],
    });
    const word = await call("/billing/credits/transactions?limit=ten", { token });
    expect(word.status).toBe(422);
    expect((await word.json<{ detail: { loc: unknown[]; input: unknown }[] }>()).detail[0]).toMatchObject({
      loc: ["query", "limit"],
      input: "ten",
      type: "int_parsing",
    });
  });

  it("GET /billing/tiers: every tier with an AUD price, never a processor price id", async () => {
    const res = await call("/billing/tiers", { token: await mintToken({ sub: crypto.randomUUID() }) });
    expect(res.status).toBe(200);
    const tiers = await res.json<Record<string, unknown>[]>();
    expect(tiers.map((t) => t.id)).toEqual(["free", "starter", "pro", "team"]);
    for (const t of tiers) {
      expect(Object.keys(t).sort()).toEqual(["credits", "features", "id", "name", "price_cents", "price_display"]);
      expect(Number.isInteger(t.credits) && Number.isInteger(t.price_cents)).toBe(true);
    }
    expect(tiers[1]).toMatchObject({ price_cents: 2900, price_display: "A$29/month" });
    expect(JSON.stringify(tiers)).not.toMatch(/price_(starter|pro|team)|processor/i);
  });

  it("GET /billing/subscription: nulls without one, the stored values with one", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const none = await call("/billing/subscription", { token: org.users.member.token });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({
      status: null,
      tier_name: null,
      credits_per_month: null,
      current_period_end: null,
      cancel_at_period_end: false,
    });
    await withDb((db) =>
      db.execute(sql`insert into subscriptions (org_id, provider_subscription_id, status, tier_id, credits_per_month, current_period_end, cancel_at_period_end)
        values (${org.orgId}, ${`sub_${org.orgId}`}, 'active', 'pro', 500, '2031-02-01T00:00:00Z', true)`),
    );
    const some = await call("/billing/subscription", { token: org.users.member.token });
    expect(await some.json()).toEqual({
      status: "active",
      tier_name: "Pro",
      credits_per_month: 500,
      current_period_end: "2031-02-01T00:00:00.000Z",
      cancel_at_period_end: true,
    });
  });
});
