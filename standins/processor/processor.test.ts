// The local payment processor speaks Stripe's wire protocol: the official SDK (fetch client) drives it and
// the SDK's own verifier accepts its webhook signatures.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { startProcessor, signPayload, type Delivery, type LocalProcessor } from "./server.ts";
import { DEV_STRIPE_PRICES, DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET } from "../dev-keys.ts";

let processor: LocalProcessor;
let stripe: Stripe;

function client(key = DEV_STRIPE_SECRET_KEY, maxNetworkRetries = 0): Stripe {
  const u = new URL(processor.url);
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    host: u.hostname,
    port: Number(u.port),
    protocol: "http",
    maxNetworkRetries,
    telemetry: false,
  });
}

async function deliveriesOf(customer: string): Promise<Delivery[]> {
  const res = await fetch(`${processor.url}/__control/deliveries?customer=${customer}`);
  return (await res.json()) as Delivery[];
}

async function paidCheckout(tier: keyof typeof DEV_STRIPE_PRICES = "starter") {
  const customer = await stripe.customers.create({ name: "Acme", metadata: { org_id: crypto.randomUUID() } });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price: DEV_STRIPE_PRICES[tier], quantity: 1 }],
    success_url: "https://app.example.com/ok?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "https://app.example.com/cancel",
    subscription_data: { metadata: { org_id: "org-1" } },
  });
  const paid = await fetch(session.url ?? "", { method: "POST" });
  expect(paid.status).toBe(200);
  const completed = (await paid.json()) as { subscription: string; invoice: string; status: string };
  return { customer, session, completed };
}

beforeAll(async () => {
  processor = await startProcessor({ port: 0 });
  stripe = client();
});
afterAll(() => processor.stop());

describe("local payment processor through the Stripe SDK", () => {
  it("creates and retrieves customers; an Idempotency-Key replays the first result", async () => {
    const key = `cust-${crypto.randomUUID()}`;
    const a = await stripe.customers.create({ name: "Acme", metadata: { org_id: "o1" } }, { idempotencyKey: key });
    const b = await stripe.customers.create({ name: "Acme", metadata: { org_id: "o1" } }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    const raw = await fetch(`${processor.url}/v1/customers`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${DEV_STRIPE_SECRET_KEY}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": key,
      },
      body: "metadata[org_id]=o1&name=Acme",
    });
    expect(raw.headers.get("idempotent-replayed")).toBe("true");
    expect(((await raw.json()) as { id: string }).id).toBe(a.id);
    expect(a.id).toMatch(/^cus_/);
    const got = await stripe.customers.retrieve(a.id);
    expect(got).toMatchObject({ id: a.id, object: "customer", name: "Acme", metadata: { org_id: "o1" } });
    const others = await Promise.all(Array.from({ length: 5 }, () => stripe.customers.create({ name: "Other" })));
    expect(new Set(others.map((c) => c.id)).size).toBe(5);
  });

  it("refuses a reused Idempotency-Key with different parameters (idempotency_error)", async () => {
    const key = `cust-${crypto.randomUUID()}`;
    await stripe.customers.create({ name: "First" }, { idempotencyKey: key });
    await expect(stripe.customers.create({ name: "Second" }, { idempotencyKey: key })).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    );
  });

  it("answers with Stripe's error envelope: resource_missing, unknown parameter, bad key", async () => {
    const missing = await stripe.customers.retrieve("cus_nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({
      code: "resource_missing",
      statusCode: 404,
      param: "id",
      message: "No such customer: 'cus_nope'",
    });
    const unknown = await stripe.customers
      .create({ name: "x", colour: "red" } as Stripe.CustomerCreateParams)
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: "parameter_unknown", param: "colour", statusCode: 400 });
    const badPrice = await stripe.checkout.sessions
      .create({
        mode: "subscription",
        line_items: [{ price: "price_missing", quantity: 1 }],
        success_url: "https://x.example/ok",
      })
      .catch((e: unknown) => e);
    expect(badPrice).toMatchObject({ code: "resource_missing", param: "line_items[0][price]", statusCode: 400 });
    await expect(client("sk_test_wrong").customers.create({ name: "x" })).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const raw = await fetch(`${processor.url}/v1/customers`, { method: "POST" });
    expect(raw.status).toBe(401);
    expect(((await raw.json()) as { error: { type: string; message: string } }).error.message).toMatch(
      /did not provide an API key/,
    );
  });

  it("simulated outages answer 500 api_error, and the SDK's retries get through", async () => {
    await fetch(`${processor.url}/__control/fail?times=1`, { method: "POST" });
    await expect(stripe.customers.create({ name: "x" })).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    await fetch(`${processor.url}/__control/fail?times=1`, { method: "POST" });
    const retried = await client(DEV_STRIPE_SECRET_KEY, 2).customers.create({ name: "retried" });
    expect(retried.name).toBe("retried");
  });

  it("POST {checkout_url} completes the payment: active subscription, paid invoice, Stripe-signed events", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { customer, session, completed } = await paidCheckout("pro");
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      customer: customer.id,
    });
    expect(session.url).toBe(`${processor.url}/c/pay/${session.id}`);
    expect(completed.status).toBe("complete");

    const sub = await stripe.subscriptions.retrieve(completed.subscription);
    expect(sub).toMatchObject({
      status: "active",
      customer: customer.id,
      cancel_at_period_end: false,
      metadata: { org_id: "org-1" },
    });
    const item = sub.items.data[0];
    expect(item?.price.id).toBe(DEV_STRIPE_PRICES.pro);
    expect(item?.price.unit_amount).toBe(9900);
    expect(item?.current_period_start).toBeGreaterThanOrEqual(before);
    const start = new Date((item?.current_period_start ?? 0) * 1000);
    const end = new Date((item?.current_period_end ?? 0) * 1000);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);

    const invoice = await stripe.invoices.retrieve(completed.invoice);
    expect(invoice).toMatchObject({
      status: "paid",
      amount_paid: 9900,
      billing_reason: "subscription_create",
      customer: customer.id,
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
    expect(invoice.lines.data[0]?.period.end).toBe(item?.current_period_end);

    const delivered = await deliveriesOf(customer.id);
    expect(delivered.map((d) => d.type)).toEqual([
      "customer.subscription.created",
      "invoice.paid",
      "invoice.payment_succeeded",
      "payment_intent.succeeded",
      "customer.subscription.updated",
      "checkout.session.completed",
    ]);
    for (const d of delivered) {
      const event = await Stripe.webhooks.constructEventAsync(
        d.payload,
        d.signature,
        DEV_STRIPE_WEBHOOK_SECRET,
        300,
        Stripe.createSubtleCryptoProvider(),
      );
      expect(event.id).toBe(d.event_id);
      expect(event.object).toBe("event");
    }
    await expect(
      Stripe.webhooks.constructEventAsync(delivered[0]?.payload ?? "", delivered[0]?.signature ?? "", "whsec_other"),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    // Paying twice is a no-op: still one subscription.
    const again = await fetch(session.url ?? "", { method: "POST" });
    expect(((await again.json()) as { subscription: string }).subscription).toBe(sub.id);
    expect(await deliveriesOf(customer.id)).toHaveLength(delivered.length);
  });

  it("a browser's Pay button is redirected to the success URL with the session id", async () => {
    const customer = await stripe.customers.create({ name: "Browser" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: DEV_STRIPE_PRICES.starter, quantity: 1 }],
      success_url: "https://app.example.com/ok?session_id={CHECKOUT_SESSION_ID}",
    });
    const page = await fetch(session.url ?? "");
    expect(await page.text()).toContain("A$29.00");
    const res = await fetch(session.url ?? "", {
      method: "POST",
      headers: { accept: "text/html" },
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`https://app.example.com/ok?session_id=${session.id}`);
  });

  it("renewals, failed payments and cancellations move the subscription like Stripe's", async () => {
    const { customer, completed } = await paidCheckout();
    const first = await stripe.subscriptions.retrieve(completed.subscription);
    const control = (action: string) =>
      fetch(`${processor.url}/__control/subscriptions/${first.id}/${action}`, { method: "POST" });

    expect((await control("renew")).status).toBe(200);
    const renewed = await stripe.subscriptions.retrieve(first.id);
    expect(renewed.items.data[0]?.current_period_start).toBe(first.items.data[0]?.current_period_end);
    const renewal = await stripe.invoices.retrieve(String(renewed.latest_invoice));
    expect(renewal).toMatchObject({ status: "paid", billing_reason: "subscription_cycle" });
    expect(renewal.lines.data[0]?.period).toEqual({
      start: renewed.items.data[0]?.current_period_start,
      end: renewed.items.data[0]?.current_period_end,
    });

    await control("fail_payment");
    const pastDue = await stripe.subscriptions.retrieve(first.id);
    expect(pastDue.status).toBe("past_due");
    expect((await stripe.invoices.retrieve(String(pastDue.latest_invoice))).status).toBe("open");

    const cancelling = await stripe.subscriptions.update(first.id, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({
      cancel_at_period_end: true,
      cancel_at: cancelling.items.data[0]?.current_period_end,
    });
    await control("renew");
    expect((await stripe.subscriptions.retrieve(first.id)).status).toBe("canceled");

    const types = (await deliveriesOf(customer.id)).map((d) => d.type);
    expect(types.slice(6)).toEqual([
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
      "invoice.payment_failed",
      "customer.subscription.updated",
      "customer.subscription.updated",
      "customer.subscription.deleted",
    ]);
  });

  it("the SDK's cancel ends a subscription now and emits customer.subscription.deleted; a second cancel is resource_missing", async () => {
    const { customer, completed } = await paidCheckout();
    const before = (await deliveriesOf(customer.id)).length;
    const cancelled = await stripe.subscriptions.cancel(completed.subscription);
    expect(cancelled).toMatchObject({ id: completed.subscription, status: "canceled", cancel_at_period_end: false });
    expect(cancelled.canceled_at).toBe(cancelled.ended_at);
    expect((await stripe.subscriptions.retrieve(completed.subscription)).status).toBe("canceled");
    const after = await deliveriesOf(customer.id);
    expect(after.slice(before).map((d) => d.type)).toEqual(["customer.subscription.deleted"]);
    expect(JSON.parse(after[before]?.payload ?? "{}").data.object).toMatchObject({ status: "canceled" });
    await expect(stripe.subscriptions.cancel(completed.subscription)).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "resource_missing",
      statusCode: 404,
    });
    expect(await deliveriesOf(customer.id)).toHaveLength(after.length);
  });

  it("lists checkout sessions newest first, filtered by customer", async () => {
    const { customer, session } = await paidCheckout();
    const other = await paidCheckout();
    const listed = await stripe.checkout.sessions.list({ customer: customer.id });
    expect(listed.data.map((s) => s.id)).toEqual([session.id]);
    expect(listed.has_more).toBe(false);
    const all = await stripe.checkout.sessions.list({ limit: 1 });
    expect(all.data).toHaveLength(1);
    expect(all.has_more).toBe(true);
    expect(other.session.customer).not.toBe(customer.id);
  });

  it("billing portal sessions name the customer and link to the portal page", async () => {
    const { customer } = await paidCheckout();
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "https://app.example.com/billing",
    });
    expect(portal).toMatchObject({
      object: "billing_portal.session",
      customer: customer.id,
      return_url: "https://app.example.com/billing",
    });
    const page = await fetch(portal.url);
    expect(await page.text()).toContain("Cancel at period end");
    await expect(stripe.billingPortal.sessions.create({ customer: "cus_missing" })).rejects.toMatchObject({
      code: "resource_missing",
      param: "customer",
    });
  });
});

describe("webhook delivery to an endpoint", () => {
  it("POSTs each event with Stripe's headers and signature, retrying failures", async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    let failFirst = true;
    const endpoint = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        const status = failFirst ? 500 : 200;
        failFirst = false;
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, "127.0.0.1", () => r()));
    const hook = await startProcessor({
      port: 0,
      webhookUrl: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`,
    });
    try {
      const u = new URL(hook.url);
      const sdk = new Stripe(DEV_STRIPE_SECRET_KEY, {
        httpClient: Stripe.createFetchHttpClient(),
        host: u.hostname,
        port: Number(u.port),
        protocol: "http",
      });
      const customer = await sdk.customers.create({ name: "Hooked" });
      const session = await sdk.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: DEV_STRIPE_PRICES.team }],
        success_url: "https://x.example/ok",
      });
      await fetch(session.url ?? "", { method: "POST" });
      // The first attempt failed and was retried: one more request than events.
      expect(received).toHaveLength(hook.deliveries.length + 1);
      expect(hook.deliveries.every((d) => d.delivered)).toBe(true);
      expect(hook.deliveries[0]?.attempts.map((a) => a.status)).toEqual([500, 200]);
      for (const r of received) {
        expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(r.headers["user-agent"]).toMatch(/^Stripe\/1\.0/);
        const header = String(r.headers["stripe-signature"]);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const event = await Stripe.webhooks.constructEventAsync(
          r.body,
          header,
          DEV_STRIPE_WEBHOOK_SECRET,
          300,
          Stripe.createSubtleCryptoProvider(),
        );
        expect(event.type).toBeTruthy();
      }
    } finally {
      await hook.stop();
      await new Promise<void>((r) => endpoint.close(() => r()));
    }
  });

  it("signs as Stripe does: v1 is HMAC-SHA256 of `t.payload`", async () => {
    const header = signPayload('{"id":"evt_1"}', "whsec_test", 1700000000);
    expect(header).toBe(`t=1700000000,v1=${await hmacHex("whsec_test", '1700000000.{"id":"evt_1"}')}`);
    const sdkHeader = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload: '{"id":"evt_1"}',
      secret: "whsec_test",
      timestamp: 1700000000,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });
    expect(header).toBe(sdkHeader);
  });
});

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return Array.from(sig, (b) => b.toString(16).padStart(2, "0")).join("");
}
