// Payment webhooks: each verified event is processed once (processed_events), in the same transaction as
// its effects. State is re-read from the processor rather than taken from the event, so the order in
// which events arrive does not matter.
import { isUuid } from "../lib/uuid.ts";
import { logger } from "../logger.ts";
import { sql } from "drizzle-orm";
import type { Db, Sql } from "../db/client.ts";
import type { PaymentProcessor, ProcessorEvent, ProcessorInvoice } from "./processor.ts";
import { grantInvoiceCredits, tierForPrice, upsertSubscription } from "./subscription-sync.ts";

export type WebhookOutcome = "processed" | "duplicate" | "ignored";

const HANDLED = /^(checkout\.session\.completed|customer\.subscription\.[a-z_.]+|invoice\.[a-z_.]+)$/;

export const isHandledEvent = (type: string): boolean => HANDLED.test(type);

function warn(msg: string, event: ProcessorEvent, extra: Record<string, unknown> = {}): void {
  logger.warn(msg, { event_id: event.id, event_type: event.type, ...extra });
}

async function alreadyProcessed(db: Db, eventId: string): Promise<boolean> {
  const res = await db.execute(sql`select 1 from processed_events where id = ${eventId}`);
  return res.rows.length > 0;
}

/** The organisation by its stored customer id, else by the org id our checkout stamped on the object. */
async function orgForEvent(db: Db, event: ProcessorEvent): Promise<string | undefined> {
  if (event.customerId) {
    const res = await db.execute<{ id: string }>(
      sql`select id from organisations where payment_customer_id = ${event.customerId}`,
    );
    if (res.rows[0]) return res.rows[0].id;
  }
  if (event.orgHint && isUuid(event.orgHint)) {
    const res = await db.execute<{ id: string }>(sql`select id from organisations where id = ${event.orgHint}`);
    if (res.rows[0]) return res.rows[0].id;
  }
  return undefined;
}

interface SyncInput {
  db: Sql;
  processor: PaymentProcessor;
  prices: Record<string, string>;
  orgId: string;
  event: ProcessorEvent;
}

async function synchronise({ db, processor, prices, orgId, event }: SyncInput): Promise<void> {
  let invoice: ProcessorInvoice | null = null;
  let subscriptionId = event.subscriptionId;
  if (event.type.startsWith("invoice.") && event.objectId) {
    invoice = await processor.getInvoice(event.objectId);
    subscriptionId = invoice?.subscriptionId ?? null;
  }
  const sub = subscriptionId ? await processor.getSubscription(subscriptionId) : null;
  if (sub) {
    const tier = tierForPrice(prices, sub.priceId);
    if (tier) await upsertSubscription(db, orgId, sub, tier);
    else
      warn("subscription to a price this deployment does not sell (check STRIPE_PRICE_*)", event, {
        price: sub.priceId,
      });
  }
  if (invoice?.status === "paid" && invoice.subscriptionId) {
    const tier = tierForPrice(prices, invoice.priceId ?? sub?.priceId ?? null);
    if (tier) await grantInvoiceCredits(db, orgId, invoice, tier);
    else
      warn("paid invoice for a price this deployment does not sell (check STRIPE_PRICE_*)", event, {
        price: invoice.priceId,
      });
  }
}

/**
 * Applies one verified event. Concurrent deliveries of the same event serialise on the organisation's
 * advisory lock and the processed_events key: exactly one applies it, the others see a duplicate.
 */
export async function handleWebhookEvent({
  db,
  processor,
  prices,
  event,
}: {
  db: Db;
  processor: PaymentProcessor;
  prices: Record<string, string>;
  event: ProcessorEvent;
}): Promise<WebhookOutcome> {
  if (!isHandledEvent(event.type)) return "ignored";
  if (await alreadyProcessed(db, event.id)) return "duplicate";
  const orgId = await orgForEvent(db, event);
  if (!orgId) {
    warn("webhook for a customer no organisation holds", event, { customer: event.customerId });
    return "ignored";
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`billing:${orgId}`}))`);
    const claimed = await tx.execute(
      sql`insert into processed_events (id, source) values (${event.id}, 'stripe') on conflict (id) do nothing returning id`,
    );
    if (claimed.rows.length === 0) return "duplicate";
    await synchronise({ db: tx, processor, prices, orgId, event });
    return "processed";
  });
}
