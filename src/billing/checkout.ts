// Checkout and portal: the organisation's processor customer (created once), subscription-mode checkout
// sessions and billing-portal sessions.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { PaymentsConfig } from "../env.ts";
import { ConflictError, InvalidRequestError, NotFoundError, UnavailableError } from "../errors.ts";
import type { PaymentProcessor } from "./processor.ts";
import { isLive } from "./subscription-sync.ts";
import { findTier, paidTiers, type Tier } from "./tiers.ts";

export const customerKey = (orgId: string): string => `org-customer:${orgId}`;

interface BillingInput {
  db: Db;
  processor: PaymentProcessor;
  payments: PaymentsConfig;
  orgId: string;
}

/** The tier to buy; an unknown or free tier is a 400 naming the ones that can be bought. */
export function purchasableTier(tierId: string): Tier {
  const tier = findTier(tierId);
  if (tier && tier.priceCents > 0) return tier;
  const choices = paidTiers()
    .map((t) => t.id)
    .join(", ");
  const what = tier ? `'${tierId}' is free and cannot be bought` : `Unknown tier '${tierId}'`;
  throw new InvalidRequestError(`${what}: choose one of ${choices}`);
}

async function storedCustomer(db: Db, orgId: string): Promise<{ name: string; customerId: string | null }> {
  const res = await db.execute<{ name: string; payment_customer_id: string | null }>(
    sql`select name, payment_customer_id from organisations where id = ${orgId}`,
  );
  const row = res.rows[0];
  if (!row) throw new NotFoundError();
  return { name: row.name, customerId: row.payment_customer_id };
}

/**
 * The organisation's processor customer, created on first need. Concurrent callers send the same
 * idempotency key (so the processor creates one customer) and only the first stores it (the database guard).
 */
export async function ensureCustomer({
  db,
  processor,
  orgId,
}: {
  db: Db;
  processor: PaymentProcessor;
  orgId: string;
}): Promise<string> {
  const org = await storedCustomer(db, orgId);
  if (org.customerId) return org.customerId;
  const created = await processor.createCustomer({ orgId, name: org.name }, customerKey(orgId));
  const res = await db.execute<{ payment_customer_id: string }>(sql`
    update organisations set payment_customer_id = ${created}
    where id = ${orgId} and payment_customer_id is null
    returning payment_customer_id`);
  if (res.rows[0]) return res.rows[0].payment_customer_id;
  return (await storedCustomer(db, orgId)).customerId ?? created;
}

/** The organisation's subscription when it still bills (active, trialing, past_due, unpaid, paused). */
async function liveSubscription(db: Db, orgId: string): Promise<{ status: string; tierId: string } | undefined> {
  const res = await db.execute<{ status: string; tier_id: string }>(
    sql`select status, tier_id from subscriptions where org_id = ${orgId}`,
  );
  const row = res.rows.find((r) => isLive(r.status));
  return row ? { status: row.status, tierId: row.tier_id } : undefined;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UnavailableError(`payment processor (${name} is not set)`);
  return value;
}

/**
 * A checkout session for the tier. An organisation whose subscription still bills is refused with 409
 * before anything is created at the processor: plans are changed in the portal, never by a second subscription.
 */
export async function startCheckout({
  db,
  processor,
  payments,
  orgId,
  tierId,
}: BillingInput & { tierId: string }): Promise<string> {
  const tier = purchasableTier(tierId);
  const priceId = required(payments.prices[tier.id], `STRIPE_PRICE_${tier.id.toUpperCase()}`);
  const successUrl = required(payments.checkoutSuccessUrl, "CHECKOUT_SUCCESS_URL");
  const cancelUrl = required(payments.checkoutCancelUrl, "CHECKOUT_CANCEL_URL");
  const live = await liveSubscription(db, orgId);
  if (live) {
    const name = findTier(live.tierId)?.name ?? live.tierId;
    throw new ConflictError(
      `This organisation already has a ${name} subscription (${live.status}); change plans in the billing portal (POST /billing/portal)`,
    );
  }
  const customerId = await ensureCustomer({ db, processor, orgId });
  return processor.createCheckoutSession({ customerId, priceId, orgId, tierId: tier.id, successUrl, cancelUrl });
}

/** A billing-portal session for the organisation's customer (created if it has none yet). */
export async function openPortal({ db, processor, payments, orgId }: BillingInput): Promise<string> {
  const customerId = await ensureCustomer({ db, processor, orgId });
  return processor.createPortalSession({ customerId, returnUrl: payments.portalReturnUrl });
}
