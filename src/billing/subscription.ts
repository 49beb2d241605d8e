// The organisation's subscription as SubscriptionInfo; nulls when it has none.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { subscriptions } from "../db/schema.ts";
import { findTier } from "./tiers.ts";

export interface SubscriptionInfo {
  status: string | null;
  tier_name: string | null;
  credits_per_month: number | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

export async function getSubscription({ db, orgId }: { db: Db; orgId: string }): Promise<SubscriptionInfo> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.orgId, orgId)).limit(1);
  if (!row)
    return {
      status: null,
      tier_name: null,
      credits_per_month: null,
      current_period_end: null,
      cancel_at_period_end: false,
    };
  return {
    status: row.status,
    tier_name: findTier(row.tierId)?.name ?? row.tierId,
    credits_per_month: row.creditsPerMonth,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
  };
}
