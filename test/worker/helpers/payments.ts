// Payments in worker tests: the real app and SDK against the local processor. The processor records its
// signed deliveries (the Worker under test has no port), and these helpers relay them byte for byte.
import { SELF } from "cloudflare:test";
import { expect, inject } from "vitest";
import { sql } from "drizzle-orm";
import type { Delivery } from "../../../standins/processor/server.ts";
import { DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET } from "../../../standins/dev-keys.ts";
import type { Db } from "../../../src/db/client.ts";
import { call, ledgerState } from "./billing.ts";

export const processorUrl = (): string => inject("processorUrl");

export type Obj = Record<string, unknown>;

/** A Stripe REST call to the local processor, as the SDK would make it. */
export async function processorGet<T = Obj>(path: string): Promise<T> {
  const res = await fetch(`${processorUrl()}${path}`, {
    headers: { Authorization: `Bearer ${DEV_STRIPE_SECRET_KEY}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json<T>();
}

export async function checkout(token: string, tierId: string): Promise<Response> {
  return call("/billing/checkout", { method: "POST", token, body: { tier_id: tierId } });
}

/** Checks out and returns the checkout URL (asserting 200). */
export async function checkoutUrl(token: string, tierId = "starter"): Promise<string> {
  const res = await checkout(token, tierId);
  expect(res.status).toBe(200);
  return (await res.json<{ checkout_url: string }>()).checkout_url;
}

/** The Pay button: POST to the checkout URL; returns the completed session. */
export async function pay(
  url: string,
): Promise<{ id: string; subscription: string; invoice: string; customer: string }> {
  const res = await fetch(url, { method: "POST" });
  if (!res.ok) throw new Error(`paying ${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

export async function deliveriesFor(customer: string): Promise<Delivery[]> {
  const res = await fetch(`${processorUrl()}/__control/deliveries?customer=${encodeURIComponent(customer)}`);
  return res.json<Delivery[]>();
}

/** Triggers a subscription change at the processor: renew, fail_payment, cancel (now, or at_period_end). */
export async function control(
  subscriptionId: string,
  action: "renew" | "fail_payment" | "cancel",
  query = "",
): Promise<void> {
  const res = await fetch(`${processorUrl()}/__control/subscriptions/${subscriptionId}/${action}${query}`, {
    method: "POST",
  });
  if (!res.ok) throw new Error(`${action} ${subscriptionId}: HTTP ${res.status} ${await res.text()}`);
}

/** The customer's checkout sessions at the processor (Stripe's list call), newest first. */
export async function sessionsOf(customer: string): Promise<string[]> {
  const list = await processorGet<{ data: { id: string }[] }>(
    `/v1/checkout/sessions?customer=${encodeURIComponent(customer)}&limit=100`,
  );
  return list.data.map((s) => s.id);
}

export async function customersOfOrg(orgId: string): Promise<Obj[]> {
  const res = await fetch(`${processorUrl()}/__control/customers?org_id=${orgId}`);
  return res.json<Obj[]>();
}

export interface WebhookReply {
  status: number;
  body: { received?: boolean; outcome?: string; detail?: string };
}

/** POSTs a webhook to the Worker with the processor's headers. */
export async function postWebhook(
  payload: string,
  signature: string | null,
  fetcher: (req: Request) => Promise<Response> = (r) => SELF.fetch(r),
): Promise<WebhookReply> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
  };
  if (signature !== null) headers["Stripe-Signature"] = signature;
  const res = await fetcher(
    new Request("https://api.test/billing/webhook", { method: "POST", headers, body: payload }),
  );
  return { status: res.status, body: await res.json() };
}

export const relay = (d: Delivery): Promise<WebhookReply> => postWebhook(d.payload, d.signature);

/** Relays every delivery for the customer not relayed before (tracked in `seen`), in order; all must be 200. */
export async function relayNew(customer: string, seen: Set<string>): Promise<Delivery[]> {
  const fresh = (await deliveriesFor(customer)).filter((d) => !seen.has(d.id));
  for (const d of fresh) {
    const reply = await relay(d);
    expect(reply.status, `${d.type}: ${JSON.stringify(reply.body)}`).toBe(200);
    seen.add(d.id);
  }
  return fresh;
}

/** Signs like the processor does, here with WebCrypto: for stale, foreign-secret and hand-made events. */
export async function sign(
  payload: string,
  { secret = DEV_STRIPE_WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000) } = {},
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${payload}`)),
  );
  return `t=${timestamp},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function storedCustomer(db: Db, orgId: string): Promise<string | null> {
  const res = await db.execute<{ payment_customer_id: string | null }>(
    sql`select payment_customer_id from organisations where id = ${orgId}`,
  );
  return res.rows[0]?.payment_customer_id ?? null;
}

export async function processedEvent(db: Db, eventId: string): Promise<boolean> {
  const res = await db.execute(sql`select 1 from processed_events where id = ${eventId}`);
  return res.rows.length > 0;
}

export interface GrantRow {
  amount: number;
  expires_at: string | null;
  related_entity_id: string | null;
  type: string;
}

export async function grantsOf(db: Db, orgId: string): Promise<GrantRow[]> {
  const res = await db.execute<{
    amount: string;
    expires_at: Date | string | null;
    related_entity_id: string | null;
    type: string;
  }>(
    sql`select amount, expires_at, related_entity_id, type from credit_ledger where org_id = ${orgId} and type = 'subscription_grant' order by seq`,
  );
  return res.rows.map((r) => ({
    amount: Number(r.amount),
    expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
    related_entity_id: r.related_entity_id,
    type: r.type,
  }));
}

/** The ledger invariant: the cached balance is the sum of the entries and each balance_after is the running sum. */
export async function expectLedgerConsistent(db: Db, orgId: string): Promise<number> {
  const state = await ledgerState(db, orgId);
  expect(state.cached).toBe(state.sum);
  let running = 0;
  for (const e of state.entries) {
    running = Math.round((running + e.amount) * 10000) / 10000;
    expect(e.balance_after).toBe(running);
  }
  return state.cached;
}

export const iso = (unixSeconds: unknown): string => new Date(Number(unixSeconds) * 1000).toISOString();
