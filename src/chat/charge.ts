// Credits for chat as settlement jobs: a question is one job opened before streaming and settled when
// the answer ends (refunded when no answer came); each scoring tool call is a job for the sites it scored.
import { logger } from "../logger.ts";
import type { Db, DbHandle } from "../db/client.ts";
import { refusalError } from "../billing/charge.ts";
import { PRICES } from "../billing/prices.ts";
import { openJob, settleJob } from "../settlement/jobs.ts";
import { settleOnOwnConnection } from "../settlement/detached.ts";
import { JOB_TIMEOUT_MS } from "../settlement/timeouts.ts";
import type { SiteCharge } from "./tools/score-sites.ts";

export interface Payer {
  db: Db;
  orgId: string;
  userId: string;
  /** A connection of settlement's own: the request's may be gone when the answer ends. */
  openOwnDb: () => DbHandle;
}

export interface ChargedQuestion {
  /** The question's job id: every ledger entry of this question names it. */
  questionId: string;
  charged: number;
  balance: number;
  /** Settles the job: refunded unless answered. Never throws; a failure is left to the sweep (which refunds). */
  settle(answered: boolean): Promise<void>;
}

/** Opens the question's job (0.05 debit) or throws the structured 402 without writing anything. */
export async function chargeQuestion(payer: Payer): Promise<ChargedQuestion> {
  const opened = await openJob(payer.db, {
    orgId: payer.orgId,
    userId: payer.userId,
    action: "chat",
    units: 1,
    unitPrice: PRICES.chatQuestion,
    idempotencyKey: `chat:${crypto.randomUUID()}`,
    description: "Chat question",
    timeoutMs: JOB_TIMEOUT_MS.chat,
  });
  if (!opened.ok) throw refusalError(opened);
  const { job, debit } = opened;
  return {
    questionId: job.id,
    charged: job.charged,
    balance: debit.balance_after,
    async settle(answered) {
      const settled = await settleOnOwnConnection(payer.openOwnDb, { jobId: job.id, unitsDone: answered ? 1 : 0 });
      if (!settled.ok)
        logger.error("chat question settlement deferred to the sweep", { job_id: job.id, error: settled.error });
    },
  };
}

/**
 * Charges a scoring tool call for the sites it scored, as batch does (0.1 each). The sites are scored
 * before the charge, so the job is settled as done at once; one job per tool call, keyed by it.
 */
export function siteCharger(
  payer: Payer,
  questionId: string,
): (sites: number, toolCallId: string) => ReturnType<SiteCharge> {
  return async (sites, toolCallId) => {
    const opened = await openJob(payer.db, {
      orgId: payer.orgId,
      userId: payer.userId,
      action: "batch_score",
      units: sites,
      unitPrice: PRICES.batchScorePerRow,
      idempotencyKey: `chat-score:${questionId}:${toolCallId}`,
      description: `Chat scoring of ${sites} site${sites === 1 ? "" : "s"}`,
      timeoutMs: JOB_TIMEOUT_MS.batch_score,
    });
    if (!opened.ok) {
      if (opened.reason === "insufficient_credits")
        return { ok: false, required: opened.required, available: opened.available };
      throw refusalError(opened);
    }
    const settled = await settleJob(payer.db, { jobId: opened.job.id, unitsDone: sites, by: "request" });
    return { ok: true, charged: opened.job.charged, balance: settled.balance };
  };
}
