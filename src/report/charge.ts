// The report's credits: one job (debit + charged_jobs row) before streaming, settled once the outcome is known.
import type { Db, DbHandle } from "../db/client.ts";
import { refusalError } from "../billing/charge.ts";
import { PRICES } from "../billing/prices.ts";
import { openJob } from "../settlement/jobs.ts";
import { settleOnOwnConnection } from "../settlement/detached.ts";
import { JOB_TIMEOUT_MS } from "../settlement/timeouts.ts";

export interface ReportChargeContext {
  db: Db;
  orgId: string;
  userId: string;
  /** A connection of settlement's own: the request's may be gone when the report ends. */
  openOwnDb: () => DbHandle;
}

export type ReportOutcome = "delivered" | "failed";

export interface ReportCharge {
  reportId: string;
  cost: number;
  /** The organisation's balance right after the debit. */
  balance: number;
  /** The idempotency key had been used: the original debit stands and nothing new was charged. */
  replayed: boolean;
  /** Settles the job once the outcome is known (a failed report is refunded in full); throws if not committed. */
  settle(outcome: ReportOutcome): Promise<void>;
}

/** Opens the report's job, or throws the structured 402 without writing anything. */
export async function chargeReport(ctx: ReportChargeContext, idempotencyKey: string): Promise<ReportCharge> {
  const opened = await openJob(ctx.db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    action: "report",
    units: 1,
    unitPrice: PRICES.report,
    idempotencyKey,
    description: "Feasibility report (PDF)",
    timeoutMs: JOB_TIMEOUT_MS.report,
  });
  if (!opened.ok) throw refusalError(opened);
  const { job, debit, replayed } = opened;
  return {
    reportId: job.id,
    cost: job.charged,
    balance: debit.balance_after,
    replayed,
    async settle(outcome) {
      const settled = await settleOnOwnConnection(ctx.openOwnDb, {
        jobId: job.id,
        unitsDone: outcome === "delivered" ? 1 : 0,
      });
      if (!settled.ok) throw settled.error;
    },
  };
}
