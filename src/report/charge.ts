// The report's credits in one place: one `usage` debit before streaming, a full refund if generation fails.
// Durable settlement of charged work (charged_jobs) replaces the body of chargeReport; callers keep this shape.
import type { Db } from "../db/client.ts";
import { charge } from "../billing/charge.ts";
import { grant } from "../billing/ledger.ts";
import { PRICES } from "../billing/prices.ts";

export interface ReportChargeContext {
  db: Db;
  orgId: string;
  userId: string;
}

export type ReportOutcome = "delivered" | "failed";

export interface ReportCharge {
  reportId: string;
  cost: number;
  /** The organisation's balance right after the debit. */
  balance: number;
  /** The idempotency key had been used: the original debit stands and nothing new was charged. */
  replayed: boolean;
  /** Settles the charge once the outcome is known; a failed report is refunded in full, at most once. */
  settle(outcome: ReportOutcome): Promise<void>;
}

/** Posts the report's debit, or throws the structured 402 without writing anything. */
export async function chargeReport(ctx: ReportChargeContext, idempotencyKey: string): Promise<ReportCharge> {
  const cost = PRICES.report;
  const fresh = crypto.randomUUID();
  const debit = await charge({
    db: ctx.db,
    orgId: ctx.orgId,
    userId: ctx.userId,
    amount: cost,
    idempotencyKey,
    actionType: "report",
    relatedEntityId: fresh,
    description: "Feasibility report (PDF)",
  });
  // A replayed key returns the original entry: the report keeps the id it was first charged under.
  const reportId = debit.related_entity_id ?? fresh;
  return {
    reportId,
    cost,
    balance: debit.balance_after,
    replayed: reportId !== fresh,
    async settle(outcome) {
      if (outcome === "delivered") return;
      await grant({
        db: ctx.db,
        orgId: ctx.orgId,
        userId: ctx.userId,
        amount: cost,
        type: "refund",
        idempotencyKey: `report-refund:${reportId}`,
        relatedEntityId: reportId,
        description: "Refund: the feasibility report could not be generated",
      });
    },
  };
}
