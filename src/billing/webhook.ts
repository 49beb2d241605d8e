// Payment webhooks: each verified event is processed once (processed_events), in the same transaction as
// its effects. State is re-read from the processor rather than taken from the event, so the order in
// which events arrive does not matter.
import { isUuid } from "../lib/uuid.ts";
import { logger } from "../logger.ts";
import { sql } from "drizzle-orm";
import type { Db, Sql } from "../db/client.ts";
import type { PaymentProcessor, ProcessorEvent, ProcessorInvoice, ProcessorSubscription } from "./processor.ts";
import {
  grantInvoiceCredits,
  holdsSubscription,
  isSecondLive,
  tierForPrice,
  upsertSubscription,
} from "./subscription-sync.ts";

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

interface EventOrg {
  id: string;
  /** The organisation's stored processor customer: the only customer whose objects may change it. */
  customerId: string | null;
}

/** The organisation by its stored customer id, else by the org id our checkout stamped on the object. */
async function orgForEvent(db: Db, event: ProcessorEvent): Promise<EventOrg | undefined> {
  const found = async (where: ReturnType<typeof sql>): Promise<EventOrg | undefined> => {
    const res = await db.execute<{ id: string; payment_customer_id: string | null }>(
      sql`select id, payment_customer_id from organisations where ${where}`,
    );
    const row = res.rows[0];
    return row ? { id: row.id, customerId: row.payment_customer_id } : undefined;
  };
  if (event.customerId) {
    const org = await found(sql`payment_customer_id = ${event.customerId}`);
    if (org) return org;
  }
  if (event.orgHint && isUuid(event.orgHint)) return found(sql`id = ${event.orgHint}`);
  return undefined;
}

/** Thrown inside the transaction to roll back an event whose objects belong to another customer. */
class ForeignCustomer extends Error {
  readonly customers: (string | null)[];
  constructor(customers: (string | null)[]) {
    super("event for another organisation's customer");
    this.customers = customers;
  }
}

interface SyncInput {
  db: Sql;
  processor: PaymentProcessor;
  prices: Record<string, string>;
  org: EventOrg;
  event: ProcessorEvent;
}

/** The objects the event names, re-read from the processor; all must belong to the organisation's customer. */
async function ownedObjects({ processor, org, event }: SyncInput): Promise<{
  invoice: ProcessorInvoice | null;
  sub: ProcessorSubscription | null;
}> {
  let invoice: ProcessorInvoice | null = null;
  let subscriptionId = event.subscriptionId;
  if (event.type.startsWith("invoice.") && event.objectId) {
    invoice = await processor.getInvoice(event.objectId);
    subscriptionId = invoice?.subscriptionId ?? null;
  }
  const sub = subscriptionId ? await processor.getSubscription(subscriptionId) : null;
  const customers = [event.customerId, invoice?.customerId, sub?.customerId].filter((c) => c !== undefined);
  if (!org.customerId || customers.some((c) => c !== null && c !== org.customerId))
    throw new ForeignCustomer(customers);
  return { invoice, sub };
}

async function synchronise(input: SyncInput): Promise<void> {
  const { db, processor, prices, org, event } = input;
  const { invoice, sub } = await ownedObjects(input);
  if (sub) {
    const tier = tierForPrice(prices, sub.priceId);
    if (!tier)
      warn("subscription to a price this deployment does not sell (check STRIPE_PRICE_*)", event, {
        price: sub.priceId,
      });
    else if (await isSecondLive(db, processor, org.id, sub)) {
      await processor.cancelSubscription(sub.id);
      warn("second live subscription cancelled at the processor; it grants nothing", event, {
        org_id: org.id,
        cancelled: sub.id,
      });
      return;
    } else await upsertSubscription(db, org.id, sub, tier);
  }
  if (invoice?.status === "paid" && invoice.subscriptionId) {
    const tier = tierForPrice(prices, invoice.priceId ?? sub?.priceId ?? null);
    if (!tier)
      warn("paid invoice for a price this deployment does not sell (check STRIPE_PRICE_*)", event, {
        price: invoice.priceId,
      });
    else if (!(await holdsSubscription(db, org.id, invoice.subscriptionId)))
      warn("paid invoice of a subscription that is not the organisation's; no credits", event, {
        subscription: invoice.subscriptionId,
      });
    else await grantInvoiceCredits(db, org.id, invoice, tier);
  }
}

/**
 * Applies one verified event. Concurrent deliveries of the same event serialise on the organisation's
 * advisory lock and the processed_events key: exactly one applies it, the others see a duplicate. An event
 * whose objects belong to another customer writes nothing, not even processed_events: it was not applied,
 * and a redelivery is refused the same way.
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
  const org = await orgForEvent(db, event);
  if (!org) {
    warn("webhook for a customer no organisation holds", event, { customer: event.customerId });
    return "ignored";
  }
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`billing:${org.id}`}))`);
      const claimed = await tx.execute(
        sql`insert into processed_events (id, source) values (${event.id}, 'stripe') on conflict (id) do nothing returning id`,
      );
      if (claimed.rows.length === 0) return "duplicate";
      await synchronise({ db: tx, processor, prices, org, event });
      return "processed";
    });
  } catch (err) {
    if (!(err instanceof ForeignCustomer)) throw err;
    warn("webhook for another organisation's customer; nothing applied", event, {
      org_id: org.id,
      org_customer: org.customerId,
      customers: err.customers,
    });
    return "ignored";
  }
}
