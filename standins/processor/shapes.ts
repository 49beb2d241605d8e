// The local processor's objects in Stripe's shapes (API version below): prices, subscriptions, invoices,
// payment intents and events, built from what the lifecycle in objects.ts decides.
import { randomBytes } from "node:crypto";

export const API_VERSION = "2026-10-28.endive";

export type Obj = Record<string, unknown>;

export interface PriceInfo {
  id: string;
  /** Minor units (cents). */
  unitAmount: number;
  currency: string;
  productName: string;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** One calendar month later, clamped to the month's last day (31 Jan -> 28/29 Feb), as Stripe bills. */
export function addMonth(unixSeconds: number): number {
  const d = new Date(unixSeconds * 1000);
  const day = d.getUTCDate();
  const next = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return Math.floor(next.getTime() / 1000);
}

export function money(cents: number, currency: string): string {
  const symbol = currency.toLowerCase() === "aud" ? "A$" : `${currency.toUpperCase()} `;
  return `${symbol}${(cents / 100).toFixed(2)}`;
}

export function priceObject(p: PriceInfo): Obj {
  return {
    id: p.id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: 1767225600,
    currency: p.currency,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: p.productName,
    product: `prod_${p.id.replace(/^price_/, "")}`,
    recurring: { interval: "month", interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: p.unitAmount,
    unit_amount_decimal: String(p.unitAmount),
  };
}

/** A new subscription (status `incomplete` until its first invoice is paid) with its one item. */
export function subscriptionObject({
  customer,
  price,
  currency,
  quantity,
  meta,
  start,
}: {
  customer: string;
  price: Obj | undefined;
  currency: string;
  quantity: number;
  meta: Record<string, string>;
  start: number;
}): Obj {
  const id = newId("sub");
  const item: Obj = {
    id: newId("si", 14),
    object: "subscription_item",
    billing_thresholds: null,
    created: start,
    current_period_end: addMonth(start),
    current_period_start: start,
    discounts: [],
    metadata: {},
    price,
    quantity,
    subscription: id,
    tax_rates: [],
  };
  const sub: Obj = {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: start,
    currency,
    customer,
    days_until_due: null,
    default_payment_method: newId("pm", 14),
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: {
      object: "list",
      data: [item],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: meta,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: "off",
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: "incomplete",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
  return sub;
}

/** An invoice for the subscription's item: paid at once, or open and due again in three days. */
export function invoiceObject({
  sub,
  item,
  customer,
  reason,
  invoicePeriod,
  paid,
  servicePeriod,
  now,
  publicUrl,
  sequence,
}: {
  sub: Obj;
  item: Obj;
  customer: Obj | undefined;
  reason: string;
  invoicePeriod: { start: number; end: number };
  paid: boolean;
  servicePeriod: { start: number; end: number };
  now: number;
  publicUrl: string;
  /** The invoice's number within the processor: its LOCAL-000n suffix. */
  sequence: number;
}): Obj {
  const price = item.price as Obj;
  const amount = Number(price.unit_amount) * Number(item.quantity ?? 1);
  const id = newId("in");
  const invoice: Obj = {
    id,
    object: "invoice",
    account_country: "AU",
    account_name: "Local payment processor",
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    amount_shipping: 0,
    attempt_count: 1,
    attempted: true,
    auto_advance: !paid,
    billing_reason: reason,
    collection_method: "charge_automatically",
    created: now,
    currency: price.currency,
    customer: sub.customer,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: now,
    ending_balance: 0,
    hosted_invoice_url: `${publicUrl}/i/${id}`,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    lines: {
      object: "list",
      data: [
        {
          id: newId("il"),
          object: "line_item",
          amount,
          currency: price.currency,
          description: `${String(item.quantity ?? 1)} × ${String(price.nickname)} (at ${money(Number(price.unit_amount), String(price.currency))} / month)`,
          discount_amounts: [],
          discountable: true,
          discounts: [],
          invoice: id,
          livemode: false,
          metadata: {},
          parent: {
            type: "subscription_item_details",
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: false,
              proration_details: { credited_items: null },
              subscription: sub.id,
              subscription_item: item.id,
            },
          },
          period: servicePeriod,
          pretax_credit_amounts: [],
          pricing: {
            type: "price_details",
            price_details: { price: price.id, product: price.product },
            unit_amount_decimal: String(price.unit_amount),
          },
          quantity: item.quantity ?? 1,
          taxes: [],
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : now + 3 * 24 * 3600,
    number: `${String(customer?.invoice_prefix ?? "LOCAL")}-${String(sequence).padStart(4, "0")}`,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: sub.metadata, subscription: sub.id },
    },
    period_end: invoicePeriod.end,
    period_start: invoicePeriod.start,
    status: paid ? "paid" : "open",
    status_transitions: {
      finalized_at: now,
      marked_uncollectible_at: null,
      paid_at: paid ? now : null,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: now,
  };
  return invoice;
}

/** The payment behind a paid invoice. */
export function paymentIntentObject(invoice: Obj): Obj {
  return {
    id: newId("pi"),
    object: "payment_intent",
    amount: invoice.amount_paid,
    amount_received: invoice.amount_paid,
    currency: invoice.currency,
    customer: invoice.customer,
    livemode: false,
    status: "succeeded",
  };
}

/** An event as Stripe sends it: the object as it is now, and for updates what it was before. */
export function eventObject(type: string, object: Obj, created: number, previous?: Obj): Obj {
  return {
    id: newId("evt"),
    object: "event",
    api_version: API_VERSION,
    created,
    data: previous
      ? { object: structuredClone(object), previous_attributes: previous }
      : { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}
