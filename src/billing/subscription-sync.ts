// Copies the processor's view of a subscription into `subscriptions`, and grants a paid invoice's credits.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import { grant } from "../credits/ledger.ts";
import { findTier, type Tier } from "./tiers.ts";
import type { PaymentProcessor, ProcessorInvoice, ProcessorSubscription } from "./processor.ts";

/** Statuses of a subscription that still bills: an organisation holding one changes plans in the portal, never by a new checkout. */
export const LIVE_STATUSES = ["active", "trialing", "past_due", "unpaid", "paused"] as const;

export function isLive(status: string): boolean {
  return (LIVE_STATUSES as readonly string[]).includes(status);
}

/** The tier a configured price id sells; undefined for prices this deployment does not sell. */
export function tierForPrice(prices: Record<string, string>, priceId: string | null): Tier | undefined {
  if (!priceId) return undefined;
  const tierId = Object.keys(prices).find((id) => prices[id] === priceId);
  return tierId ? findTier(tierId) : undefined;
}

export const grantKey = (invoiceId: string): string => `subscription_grant:${invoiceId}`;

const live = sql.raw(LIVE_STATUSES.map((s) => `'${s}'`).join(", "));

/**
 * Upserts the organisation's one subscription row from the processor's state. A different subscription
 * replaces the row unless the row's is still live and the incoming one is not (a stale event about an
 * old, cancelled subscription never hides the current one).
 */
export async function upsertSubscription(
  db: Sql,
  orgId: string,
  sub: ProcessorSubscription,
  tier: Tier,
): Promise<void> {
  await db.execute(sql`
    insert into subscriptions (org_id, provider_subscription_id, status, tier_id, credits_per_month, current_period_end, cancel_at_period_end, updated_at)
    values (${orgId}, ${sub.id}, ${sub.status}, ${tier.id}, ${tier.credits}, ${sub.currentPeriodEnd?.toISOString() ?? null}::timestamptz, ${sub.cancelAtPeriodEnd}, now())
    on conflict (org_id) do update set
      provider_subscription_id = excluded.provider_subscription_id,
      status = excluded.status,
      tier_id = excluded.tier_id,
      credits_per_month = excluded.credits_per_month,
      current_period_end = excluded.current_period_end,
      cancel_at_period_end = excluded.cancel_at_period_end,
      updated_at = now()
    where subscriptions.provider_subscription_id = excluded.provider_subscription_id
       or subscriptions.status not in (${live})
       or excluded.status in (${live})`);
}

/**
 * Whether `sub` is live while the organisation already holds a different live subscription: the first one
 * stored stays. The stored one is re-read from the processor so a missed or late cancellation of it never
 * makes us cancel its replacement.
 */
export async function isSecondLive(
  db: Sql,
  processor: PaymentProcessor,
  orgId: string,
  sub: ProcessorSubscription,
): Promise<boolean> {
  if (!isLive(sub.status)) return false;
  const res = await db.execute<{ provider_subscription_id: string }>(sql`
    select provider_subscription_id from subscriptions
    where org_id = ${orgId} and provider_subscription_id <> ${sub.id} and status in (${live})`);
  const stored = res.rows[0]?.provider_subscription_id;
  if (!stored) return false;
  const current = await processor.getSubscription(stored);
  return current !== null && isLive(current.status);
}

/** Whether the organisation's subscription row is this subscription (only its invoices grant credits). */
export async function holdsSubscription(db: Sql, orgId: string, subscriptionId: string): Promise<boolean> {
  const res = await db.execute(
    sql`select 1 from subscriptions where org_id = ${orgId} and provider_subscription_id = ${subscriptionId}`,
  );
  return res.rows.length > 0;
}

/** Grants the tier's monthly credits for a paid invoice, once per invoice, expiring when the period it pays for ends. */
export async function grantInvoiceCredits(
  db: Sql,
  orgId: string,
  invoice: ProcessorInvoice,
  tier: Tier,
): Promise<boolean> {
  const until = invoice.periodEnd ? ` until ${invoice.periodEnd.toISOString().slice(0, 10)}` : "";
  const res = await grant({
    db,
    orgId,
    amount: tier.credits,
    type: "subscription_grant",
    idempotencyKey: grantKey(invoice.id),
    expiresAt: invoice.periodEnd,
    relatedEntityId: invoice.id,
    description: `${tier.name} plan: ${tier.credits} credits${until}`,
  });
  if (!res.ok) throw new Error(`subscription grant for invoice ${invoice.id} refused: ${res.reason}`);
  return !res.replayed;
}
