// POST /billing/checkout and /billing/portal through the real app, the Stripe SDK talking to the local processor.
import { fetchWith } from "../helpers/app.ts";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { DEV_STRIPE_PRICES } from "../../../standins/dev-keys.ts";
import { call, createTeamOrg, withDb } from "../helpers/billing.ts";
import {
  type Obj,
  checkout,
  checkoutUrl,
  customersOfOrg,
  deliveriesFor,
  expectLedgerConsistent,
  grantsOf,
  iso,
  pay,
  processorGet,
  processorUrl,
  relay,
  relayNew,
  sessionsOf,
  storedCustomer,
} from "../helpers/payments.ts";

const newOrg = () => withDb((db) => createTeamOrg(db, { idpUsers: false }));
const sessionId = (url: string): string => url.split("/").pop() ?? "";

describe("POST /billing/checkout", () => {
  it("pays through the processor: the webhooks make the subscription active and grant the tier's credits", async () => {
    const org = await newOrg();
    const owner = org.users.owner.token;
    expect(await (await call("/billing/subscription", { token: owner })).json()).toEqual({
      status: null,
      tier_name: null,
      credits_per_month: null,
      current_period_end: null,
      cancel_at_period_end: false,
    });

    const url = await checkoutUrl(owner, "starter");
    expect(url).toMatch(new RegExp(`^${processorUrl()}/c/pay/cs_test_`));
    const customer = await withDb((db) => storedCustomer(db, org.orgId));
    expect(customer).toMatch(/^cus_/);
    const orgInfo = await (await call("/billing/org", { token: owner })).json<{ payment_customer_id: string }>();
    expect(orgInfo.payment_customer_id).toBe(customer);
    const session = await processorGet(`/v1/checkout/sessions/${sessionId(url)}`);
    expect(session).toMatchObject({
      mode: "subscription",
      customer,
      client_reference_id: org.orgId,
      metadata: { org_id: org.orgId, tier_id: "starter" },
      success_url: "https://app.example.com/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://app.example.com/billing?checkout=cancelled",
    });

    const paid = await pay(url);
    const delivered = await relayNew(customer ?? "", new Set());
    expect(delivered.map((d) => d.type)).toContain("invoice.paid");

    const sub = await processorGet<{ items: { data: { current_period_end: number }[] } }>(
      `/v1/subscriptions/${paid.subscription}`,
    );
    const periodEnd = iso(sub.items.data[0]?.current_period_end);
    expect(await (await call("/billing/subscription", { token: org.users.member.token })).json()).toEqual({
      status: "active",
      tier_name: "Starter",
      credits_per_month: 100,
      current_period_end: periodEnd,
      cancel_at_period_end: false,
    });
    const balance = await (await call("/billing/credits/balance", { token: owner })).json<{ balance: number }>();
    expect(balance.balance).toBe(100);
    await withDb(async (db) => {
      expect(await grantsOf(db, org.orgId)).toEqual([
        { amount: 100, expires_at: periodEnd, related_entity_id: paid.invoice, type: "subscription_grant" },
      ]);
      expect(await expectLedgerConsistent(db, org.orgId)).toBe(100);
    });
  });

  it("an admin may check out; the price is the tier's from config", async () => {
    const org = await newOrg();
    const url = await checkoutUrl(org.users.admin.token, "team");
    const session = await processorGet<Obj>(`/v1/checkout/sessions/${sessionId(url)}`);
    expect(session.amount_total).toBe(29900);
    const paid = await pay(url);
    const sub = await processorGet<{ items: { data: { price: { id: string } }[] } }>(
      `/v1/subscriptions/${paid.subscription}`,
    );
    expect(sub.items.data[0]?.price.id).toBe(DEV_STRIPE_PRICES.team);
  });

  it("a member gets 403 on checkout and portal, before the body is looked at, and nothing is created", async () => {
    const org = await newOrg();
    const member = org.users.member.token;
    for (const [path, body] of [
      ["/billing/checkout", { tier_id: "starter" }],
      ["/billing/checkout", { nonsense: true }],
      ["/billing/portal", undefined],
    ] as const) {
      const res = await call(path, { method: "POST", token: member, body });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ detail: "Billing admin access required" });
    }
    expect(await withDb((db) => storedCustomer(db, org.orgId))).toBeNull();
    expect(await customersOfOrg(org.orgId)).toEqual([]);
  });

  it("an unknown or free tier is 400 naming the tiers that can be bought; a missing tier_id is 422", async () => {
    const org = await newOrg();
    const owner = org.users.owner.token;
    const unknown = await checkout(owner, "gold");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ detail: "Unknown tier 'gold': choose one of starter, pro, team" });
    const free = await checkout(owner, "free");
    expect(free.status).toBe(400);
    expect(await free.json()).toEqual({
      detail: "'free' is free and cannot be bought: choose one of starter, pro, team",
    });
    const missing = await call("/billing/checkout", { method: "POST", token: owner, body: {} });
    expect(missing.status).toBe(422);
    expect((await missing.json<{ detail: { loc: string[] }[] }>()).detail[0]?.loc).toEqual(["body", "tier_id"]);
    expect(await customersOfOrg(org.orgId)).toEqual([]);
  });

  it("10 concurrent checkouts create exactly one processor customer", async () => {
    const org = await newOrg();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => checkout(i % 2 ? org.users.owner.token : org.users.admin.token, "pro")),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const urls = await Promise.all(replies.map(async (r) => (await r.json<{ checkout_url: string }>()).checkout_url));
    expect(new Set(urls).size).toBe(10);
    const customers = await customersOfOrg(org.orgId);
    expect(customers).toHaveLength(1);
    const stored = await withDb((db) => storedCustomer(db, org.orgId));
    expect(stored).toBe(customers[0]?.id);
    for (const url of urls)
      expect((await processorGet<Obj>(`/v1/checkout/sessions/${sessionId(url)}`)).customer).toBe(stored);
  });

  it("an organisation with a live subscription gets 409 pointing to the portal, and nothing is created at the processor", async () => {
    const org = await newOrg();
    const owner = org.users.owner.token;
    await pay(await checkoutUrl(owner, "starter"));
    const customer = (await withDb((db) => storedCustomer(db, org.orgId))) ?? "";
    await relayNew(customer, new Set());
    const sessions = await sessionsOf(customer);
    expect(sessions).toHaveLength(1);
    for (const tier of ["pro", "starter"]) {
      const again = await checkout(owner, tier);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        detail:
          "This organisation already has a Starter subscription (active); change plans in the billing portal (POST /billing/portal)",
      });
    }
    expect(await sessionsOf(customer)).toEqual(sessions);
    expect(await customersOfOrg(org.orgId)).toHaveLength(1);
  });

  it("two checkouts paid before either webhook: the first stored stays, the second is cancelled at the processor and grants nothing", async () => {
    for (const order of ["paid order", "reverse order"] as const) {
      const org = await newOrg();
      const owner = org.users.owner.token;
      const urls = [await checkoutUrl(owner, "starter"), await checkoutUrl(owner, "team")];
      const customer = (await withDb((db) => storedCustomer(db, org.orgId))) ?? "";
      const first = await pay(urls[0] ?? "");
      const firstDeliveries = await deliveriesFor(customer);
      const second = await pay(urls[1] ?? "");
      const secondDeliveries = (await deliveriesFor(customer)).slice(firstDeliveries.length);
      // The webhooks arrive after both payments, one subscription's events before the other's.
      const [kept, dropped] = order === "paid order" ? [first, second] : [second, first];
      const arrival =
        order === "paid order" ? [firstDeliveries, secondDeliveries] : [secondDeliveries, firstDeliveries];
      const seen = new Set<string>();
      for (const d of arrival.flat()) {
        const reply = await relay(d);
        expect(reply.status, `${order} ${d.type}`).toBe(200);
        seen.add(d.id);
      }
      expect(await processorGet(`/v1/subscriptions/${dropped.subscription}`), order).toMatchObject({
        status: "canceled",
      });
      expect(await processorGet(`/v1/subscriptions/${kept.subscription}`), order).toMatchObject({ status: "active" });
      // The cancellation's own event changes nothing either.
      expect((await relayNew(customer, seen)).map((d) => d.type)).toEqual(["customer.subscription.deleted"]);
      const keptTier = order === "paid order" ? { id: "starter", credits: 100 } : { id: "team", credits: 2000 };
      await withDb(async (db) => {
        const rows = await db.execute(
          sql`select provider_subscription_id, status, tier_id from subscriptions where org_id = ${org.orgId}`,
        );
        expect(rows.rows, order).toEqual([
          { provider_subscription_id: kept.subscription, status: "active", tier_id: keptTier.id },
        ]);
        expect(await grantsOf(db, org.orgId), order).toEqual([
          expect.objectContaining({ amount: keptTier.credits, related_entity_id: kept.invoice }),
        ]);
        expect(await expectLedgerConsistent(db, org.orgId), order).toBe(keptTier.credits);
      });
    }
  });

  it("the processor unreachable is 503 Billing service unavailable and stores no customer", async () => {
    const org = await newOrg();
    const headers = { Authorization: `Bearer ${org.users.owner.token}`, "Content-Type": "application/json" };
    const down = { STRIPE_API_BASE: "http://127.0.0.1:1" };
    const co = await fetchWith(down, "/billing/checkout", {
      method: "POST",
      headers,
      body: JSON.stringify({ tier_id: "starter" }),
    });
    expect(co.status).toBe(503);
    expect(await co.json()).toEqual({ detail: "Billing service unavailable" });
    const portal = await fetchWith(down, "/billing/portal", { method: "POST", headers });
    expect(portal.status).toBe(503);
    expect(await portal.json()).toEqual({ detail: "Billing service unavailable" });
    expect(await withDb((db) => storedCustomer(db, org.orgId))).toBeNull();
    expect(await customersOfOrg(org.orgId)).toEqual([]);
  });

  it("payments not configured (no secret key) is 503 too", async () => {
    const org = await newOrg();
    const res = await fetchWith({ STRIPE_SECRET_KEY: "" }, "/billing/checkout", {
      method: "POST",
      headers: { Authorization: `Bearer ${org.users.owner.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tier_id: "starter" }),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Billing service unavailable" });
  });
});

describe("POST /billing/portal", () => {
  it("creates the customer when missing, once, and returns a portal session for it", async () => {
    const org = await newOrg();
    const first = await call("/billing/portal", { method: "POST", token: org.users.owner.token });
    expect(first.status).toBe(200);
    const { portal_url } = await first.json<{ portal_url: string }>();
    expect(portal_url).toMatch(new RegExp(`^${processorUrl()}/p/session/bps_`));
    const customer = await withDb((db) => storedCustomer(db, org.orgId));
    expect(customer).toMatch(/^cus_/);
    const second = await call("/billing/portal", { method: "POST", token: org.users.admin.token });
    expect(second.status).toBe(200);
    expect(await customersOfOrg(org.orgId)).toHaveLength(1);
    expect(await deliveriesFor(customer ?? "")).toEqual([]);
    const page = await fetch(portal_url);
    expect(page.status).toBe(200);
  });
});
