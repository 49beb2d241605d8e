// POST /billing/webhook through the real app: signatures, once-only processing, order independence,
// renewals, expiry, cancellation and outages. Deliveries come from the local processor, relayed verbatim.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { createApp } from "../../../src/app.ts";
import { MAX_WEBHOOK_BYTES } from "../../../src/routes/checkout.ts";
import { debit } from "../../../src/credits/ledger.ts";
import { expireOrgGrants } from "../../../src/credits/expiry.ts";
import type { Delivery } from "../../../standins/processor/server.ts";
import { DEV_STRIPE_PRICES } from "../../../standins/dev-keys.ts";
import { call, createTeamOrg, withDb, type TestOrg } from "../helpers/billing.ts";
import {
  checkout,
  checkoutUrl,
  control,
  deliveriesFor,
  expectLedgerConsistent,
  grantsOf,
  iso,
  pay,
  postWebhook,
  processedEvent,
  processorGet,
  relay,
  relayNew,
  sign,
  storedCustomer,
} from "../helpers/payments.ts";

interface Paid {
  org: TestOrg;
  customer: string;
  subscription: string;
  invoice: string;
  deliveries: Delivery[];
}

/** An organisation that has paid for `tier` at the processor; its webhooks are recorded, not yet relayed. */
async function paidOrg(tier = "starter"): Promise<Paid> {
  const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
  const paid = await pay(await checkoutUrl(org.users.owner.token, tier));
  const customer = (await withDb((db) => storedCustomer(db, org.orgId))) ?? "";
  return {
    org,
    customer,
    subscription: paid.subscription,
    invoice: paid.invoice,
    deliveries: await deliveriesFor(customer),
  };
}

const byType = (ds: Delivery[], type: string): Delivery => {
  const d = ds.find((x) => x.type === type);
  if (!d) throw new Error(`no ${type} delivery`);
  return d;
};

async function subscriptionInfo(org: TestOrg): Promise<Record<string, unknown>> {
  return (await call("/billing/subscription", { token: org.users.owner.token })).json();
}

async function balance(org: TestOrg): Promise<number> {
  return (await (await call("/billing/credits/balance", { token: org.users.owner.token })).json<{ balance: number }>())
    .balance;
}

async function periodEnd(subscription: string): Promise<string> {
  const sub = await processorGet<{ items: { data: { current_period_end: number }[] } }>(
    `/v1/subscriptions/${subscription}`,
  );
  return iso(sub.items.data[0]?.current_period_end);
}

async function appFetch(overrides: Partial<Env>, req: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(req, { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function nothingWritten(p: Paid, eventId: string): Promise<void> {
  await withDb(async (db) => {
    expect(await processedEvent(db, eventId)).toBe(false);
    expect((await db.execute(sql`select 1 from subscriptions where org_id = ${p.org.orgId}`)).rows).toHaveLength(0);
    expect(await grantsOf(db, p.org.orgId)).toEqual([]);
    expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(0);
  });
}

// Seconds a future-dated signature is kept past the tolerance, so it is still future-dated when it is posted.
const POSTING_SLACK_S = 30;

describe("POST /billing/webhook signatures", () => {
  it("refuses unsigned, tampered, stale, future-dated, wrong-secret and malformed signatures with 400 and writes nothing", async () => {
    const p = await paidOrg();
    const d = byType(p.deliveries, "invoice.paid");
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string | null, string, string][] = [
      ["unsigned", null, d.payload, "Missing Stripe-Signature header"],
      [
        "tampered",
        d.signature,
        d.payload.replace('"amount_paid": 2900', '"amount_paid": 9999999'),
        "Invalid webhook signature",
      ],
      ["stale", await sign(d.payload, { timestamp: now - 301 }), d.payload, "Webhook timestamp is older than 300 s"],
      [
        "future-dated",
        // Past the tolerance by more than the seconds the cases before it may take to post (CI saw 300 s by then).
        await sign(d.payload, { timestamp: now + 301 + POSTING_SLACK_S }),
        d.payload,
        "Webhook timestamp is more than 300 s in the future",
      ],
      [
        "a day ahead",
        await sign(d.payload, { timestamp: now + 86_400 }),
        d.payload,
        "Webhook timestamp is more than 300 s in the future",
      ],
      ["wrong secret", await sign(d.payload, { secret: "whsec_someone_else" }), d.payload, "Invalid webhook signature"],
      ["garbage header", "v1=deadbeef", d.payload, "Invalid webhook signature"],
      ["signed non-JSON", await sign("not json"), "not json", "Webhook body is not a JSON event"],
    ];
    expect(cases[1]?.[2]).not.toBe(d.payload);
    for (const [name, signature, payload, detail] of cases) {
      const reply = await postWebhook(payload, signature);
      expect(reply.status, name).toBe(400);
      expect(reply.body, name).toEqual({ detail });
    }
    await nothingWritten(p, d.event_id);
    // Within the tolerance the same bytes are accepted: the refusals were about the signature alone (timed from now,
    // not from before the refusals, which take seconds under load).
    const later = Math.floor(Date.now() / 1000);
    expect((await postWebhook(d.payload, await sign(d.payload, { timestamp: later - 290 }))).body).toEqual({
      received: true,
      outcome: "processed",
    });
    // A clock a little ahead is tolerated too.
    expect((await postWebhook(d.payload, await sign(d.payload, { timestamp: later + 290 }))).body).toEqual({
      received: true,
      outcome: "duplicate",
    });
  });

  it("checks the timestamp the signature was verified against: a later ` t=<now>` does not hide one an hour ahead", async () => {
    const p = await paidOrg();
    const d = byType(p.deliveries, "invoice.paid");
    const now = Math.floor(Date.now() / 1000);
    // The processor's SDK reads the key "t" untrimmed: it verifies v1 over the hour-ahead stamp, not " t=<now>".
    const ahead = await sign(d.payload, { timestamp: now + 3600 });
    for (const signature of [`${ahead}, t=${now}`, `${ahead},t=${now + 3600}, t=${now}`]) {
      const reply = await postWebhook(d.payload, signature);
      expect(reply, signature).toEqual({
        status: 400,
        body: { detail: "Webhook timestamp is more than 300 s in the future" },
      });
    }
    // A stamp that is not a number escapes both tolerance checks: refused even when signed over it.
    expect((await postWebhook(d.payload, await sign(d.payload, { timestamp: Number.NaN }))).status).toBe(400);
    await nothingWritten(p, d.event_id);
  });

  it("stops reading a chunked body without Content-Length at the cap: 413 after at most the cap and one chunk", async () => {
    const chunk = 64 * 1024;
    let pulled = 0;
    // 400 MiB on offer, handed over only as the reader pulls.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= 400 * 1024 * 1024) return controller.close();
          pulled += chunk;
          controller.enqueue(new Uint8Array(chunk).fill(0x20));
        },
      },
      { highWaterMark: 0 },
    );
    const req = new Request("https://api.test/billing/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": await sign("{}") },
      body,
    });
    expect(req.headers.get("Content-Length")).toBeNull();
    const res = await appFetch({}, req);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: `Webhook body over ${MAX_WEBHOOK_BYTES} bytes` });
    expect(pulled).toBeGreaterThan(MAX_WEBHOOK_BYTES);
    expect(pulled).toBeLessThanOrEqual(MAX_WEBHOOK_BYTES + chunk);
  });

  it("acknowledges a signed event of a type it does not handle, without writing", async () => {
    const payload = JSON.stringify({
      id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
      object: "event",
      type: "charge.succeeded",
      data: { object: { id: "ch_1", object: "charge" } },
    });
    const reply = await postWebhook(payload, await sign(payload));
    expect(reply).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    const p = await paidOrg();
    const intent = byType(p.deliveries, "payment_intent.succeeded");
    expect(await relay(intent)).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    await withDb(async (db) => expect(await processedEvent(db, intent.event_id)).toBe(false));
  });
});

/** Every row the webhook may write for the organisation: its subscription and its ledger. */
async function billingState(orgId: string): Promise<unknown> {
  return withDb(async (db) => ({
    subscriptions: (await db.execute(sql`select * from subscriptions where org_id = ${orgId}`)).rows,
    ledger: (await db.execute(sql`select * from credit_ledger where org_id = ${orgId} order by seq`)).rows,
    balance: await expectLedgerConsistent(db, orgId),
  }));
}

const forged = (type: string, object: Record<string, unknown>): string =>
  JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });

describe("POST /billing/webhook trust", () => {
  it("a signed event whose objects belong to another organisation's customer is acknowledged and writes nothing", async () => {
    const a = await paidOrg("starter");
    const b = await paidOrg("team");
    await relayNew(a.customer, new Set());
    await relayNew(b.customer, new Set());
    const before = [await billingState(a.org.orgId), await billingState(b.org.orgId)];
    const hintA = { org_id: a.org.orgId };
    const events = [
      // orgHint names A, the customer is no one's: B's subscription re-read belongs to B.
      forged("customer.subscription.updated", { id: b.subscription, object: "subscription", metadata: hintA }),
      forged("customer.subscription.updated", {
        id: b.subscription,
        object: "subscription",
        customer: "cus_nobody",
        metadata: hintA,
      }),
      // A's customer on the event, B's subscription behind it.
      forged("customer.subscription.updated", { id: b.subscription, object: "subscription", customer: a.customer }),
      forged("checkout.session.completed", {
        id: "cs_forged",
        object: "checkout.session",
        customer: a.customer,
        subscription: b.subscription,
        client_reference_id: a.org.orgId,
      }),
      // B's paid invoice presented as A's.
      forged("invoice.paid", { id: b.invoice, object: "invoice", customer: a.customer, metadata: hintA }),
    ];
    for (const payload of events) {
      const reply = await postWebhook(payload, await sign(payload));
      expect(reply, payload).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
      await withDb(async (db) => expect(await processedEvent(db, JSON.parse(payload).id)).toBe(false));
    }
    expect([await billingState(a.org.orgId), await billingState(b.org.orgId)]).toEqual(before);
    expect(await subscriptionInfo(a.org)).toMatchObject({ status: "active", tier_name: "Starter" });
    expect(await subscriptionInfo(b.org)).toMatchObject({ status: "active", tier_name: "Team" });
  });
});

describe("POST /billing/webhook processing", () => {
  it("the same event delivered 10 times at once is applied once; another event for the same invoice grants nothing more", async () => {
    const p = await paidOrg("pro");
    const paidEvent = byType(p.deliveries, "invoice.paid");
    const replies = await Promise.all(Array.from({ length: 10 }, () => relay(paidEvent)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const outcomes = replies.map((r) => r.body.outcome).sort();
    expect(outcomes).toEqual(["duplicate", ...Array(8).fill("duplicate"), "processed"].sort());
    expect(await relay(byType(p.deliveries, "invoice.payment_succeeded"))).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await relay(paidEvent)).toEqual({ status: 200, body: { received: true, outcome: "duplicate" } });
    await withDb(async (db) => {
      expect(await grantsOf(db, p.org.orgId)).toHaveLength(1);
      expect(await processedEvent(db, paidEvent.event_id)).toBe(true);
      expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(500);
    });
    expect(await subscriptionInfo(p.org)).toMatchObject({ status: "active", tier_name: "Pro", credits_per_month: 500 });
  });

  it("events delivered out of order end in the processor's state", async () => {
    const p = await paidOrg();
    await control(p.subscription, "cancel", "?at_period_end=true");
    const all = await deliveriesFor(p.customer);
    expect(all.at(-1)?.type).toBe("customer.subscription.updated");
    // Newest first: the cancellation lands before the subscription is even created here.
    for (const d of [...all].reverse()) expect((await relay(d)).status).toBe(200);
    expect(await subscriptionInfo(p.org)).toEqual({
      status: "active",
      tier_name: "Starter",
      credits_per_month: 100,
      current_period_end: await periodEnd(p.subscription),
      cancel_at_period_end: true,
    });
    expect(await balance(p.org)).toBe(100);
    await withDb((db) => expectLedgerConsistent(db, p.org.orgId));
  });

  it("a renewal grants the tier's credits once more, per invoice, expiring at the new period's end", async () => {
    const p = await paidOrg();
    const seen = new Set<string>();
    await relayNew(p.customer, seen);
    const firstEnd = await periodEnd(p.subscription);
    await control(p.subscription, "renew");
    const renewal = await relayNew(p.customer, seen);
    expect(renewal.map((d) => d.type)).toEqual([
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    // Replaying the whole history changes nothing.
    for (const d of await deliveriesFor(p.customer)) expect((await relay(d)).body.outcome).not.toBe("processed");
    const secondEnd = await periodEnd(p.subscription);
    expect(secondEnd > firstEnd).toBe(true);
    const renewalInvoice = (await processorGet<{ latest_invoice: string }>(`/v1/subscriptions/${p.subscription}`))
      .latest_invoice;
    await withDb(async (db) => {
      expect(await grantsOf(db, p.org.orgId)).toEqual([
        { amount: 100, expires_at: firstEnd, related_entity_id: p.invoice, type: "subscription_grant" },
        { amount: 100, expires_at: secondEnd, related_entity_id: renewalInvoice, type: "subscription_grant" },
      ]);
      expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(200);
    });
    expect(await subscriptionInfo(p.org)).toMatchObject({ status: "active", current_period_end: secondEnd });
  });

  it("unspent subscription credits expire at the end of the period they were granted for, through the expiry job", async () => {
    const p = await paidOrg();
    await relayNew(p.customer, new Set());
    const end = new Date(await periodEnd(p.subscription));
    await withDb(async (db) => {
      expect(
        (
          await debit({
            db,
            orgId: p.org.orgId,
            amount: 30,
            idempotencyKey: `spend:${p.org.orgId}`,
            actionType: "report",
          })
        ).ok,
      ).toBe(true);
      expect(await expireOrgGrants({ db, orgId: p.org.orgId, now: new Date(end.getTime() - 1000) })).toEqual({
        expired: 0,
        deferred: false,
      });
      expect(await expireOrgGrants({ db, orgId: p.org.orgId, now: new Date(end.getTime() + 1000) })).toEqual({
        expired: 1,
        deferred: false,
      });
      const expiry = await db.execute<{ amount: string }>(
        sql`select amount from credit_ledger where org_id = ${p.org.orgId} and type = 'expiry'`,
      );
      expect(expiry.rows.map((r) => Number(r.amount))).toEqual([-70]);
      expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(0);
    });
  });

  it("cancellation at period end shows cancel_at_period_end; cancelling now shows canceled and allows a new checkout", async () => {
    const p = await paidOrg();
    const seen = new Set<string>();
    await relayNew(p.customer, seen);
    await control(p.subscription, "cancel", "?at_period_end=true");
    await relayNew(p.customer, seen);
    expect(await subscriptionInfo(p.org)).toMatchObject({ status: "active", cancel_at_period_end: true });
    await control(p.subscription, "cancel");
    expect((await relayNew(p.customer, seen)).map((d) => d.type)).toEqual(["customer.subscription.deleted"]);
    expect(await subscriptionInfo(p.org)).toMatchObject({
      status: "canceled",
      tier_name: "Starter",
      cancel_at_period_end: false,
    });
    // No live subscription any more: a new checkout, not the portal.
    expect(await checkoutUrl(p.org.users.owner.token, "pro")).toMatch(/\/c\/pay\/cs_test_/);
    expect(await balance(p.org)).toBe(100);
    await withDb((db) => expectLedgerConsistent(db, p.org.orgId));
  });

  it("a new subscription replaces a cancelled one, and stale events about the old one do not bring it back", async () => {
    const p = await paidOrg();
    const seen = new Set<string>();
    await relayNew(p.customer, seen);
    await control(p.subscription, "cancel");
    const cancelled = await relayNew(p.customer, seen);
    const second = await pay(await checkoutUrl(p.org.users.owner.token, "team"));
    await relayNew(p.customer, seen);
    for (const d of cancelled)
      await postWebhook(
        d.payload.replace(d.event_id, `${d.event_id}x`),
        await sign(d.payload.replace(d.event_id, `${d.event_id}x`)),
      );
    expect(await subscriptionInfo(p.org)).toMatchObject({
      status: "active",
      tier_name: "Team",
      credits_per_month: 2000,
      current_period_end: await periodEnd(second.subscription),
    });
    await withDb(async (db) => expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(2100));
  });

  it("a failed renewal payment makes the subscription past_due and grants nothing", async () => {
    const p = await paidOrg();
    const seen = new Set<string>();
    await relayNew(p.customer, seen);
    await control(p.subscription, "fail_payment");
    expect((await relayNew(p.customer, seen)).map((d) => d.type)).toEqual([
      "invoice.payment_failed",
      "customer.subscription.updated",
    ]);
    expect(await subscriptionInfo(p.org)).toMatchObject({
      status: "past_due",
      current_period_end: await periodEnd(p.subscription),
    });
    await withDb(async (db) => {
      expect(await grantsOf(db, p.org.orgId)).toHaveLength(1);
      expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(100);
    });
    // Still a live subscription: no second checkout; the payment is fixed in the portal.
    const again = await checkout(p.org.users.owner.token, "starter");
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      detail:
        "This organisation already has a Starter subscription (past_due); change plans in the billing portal (POST /billing/portal)",
    });
  });

  it("the processor unreachable while applying an event is 503 with nothing written; the processor's retry applies it", async () => {
    const p = await paidOrg();
    const d = byType(p.deliveries, "invoice.paid");
    const request = () =>
      new Request("https://api.test/billing/webhook", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": d.signature },
        body: d.payload,
      });
    const down = await appFetch({ STRIPE_API_BASE: "http://127.0.0.1:1" }, request());
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ detail: "Billing service unavailable" });
    await nothingWritten(p, d.event_id);
    const retry = await appFetch({}, request());
    expect(await retry.json()).toEqual({ received: true, outcome: "processed" });
    await withDb(async (db) => expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(100));
  });

  it("an unconfigured webhook secret is 503 (the processor keeps retrying) and writes nothing", async () => {
    const p = await paidOrg();
    const d = byType(p.deliveries, "invoice.paid");
    const res = await appFetch(
      { STRIPE_WEBHOOK_SECRET: "" },
      new Request("https://api.test/billing/webhook", {
        method: "POST",
        headers: { "Stripe-Signature": d.signature },
        body: d.payload,
      }),
    );
    expect(res.status).toBe(503);
    await nothingWritten(p, d.event_id);
  });

  it("events for a price this deployment does not sell change nothing", async () => {
    const p = await paidOrg();
    const d = byType(p.deliveries, "invoice.paid");
    const res = await appFetch(
      { STRIPE_PRICE_STARTER: "price_other" },
      new Request("https://api.test/billing/webhook", {
        method: "POST",
        headers: { "Stripe-Signature": d.signature },
        body: d.payload,
      }),
    );
    expect(await res.json()).toEqual({ received: true, outcome: "processed" });
    await withDb(async (db) => {
      expect(await grantsOf(db, p.org.orgId)).toEqual([]);
      expect(await expectLedgerConsistent(db, p.org.orgId)).toBe(0);
    });
    expect(DEV_STRIPE_PRICES.starter).not.toBe("price_other");
  });
});
