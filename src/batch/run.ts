// A batch: charged once up front as a job, each row scored in order, then settled: unscored rows refunded.
import type { Db } from "../db/client.ts";
import { logger } from "../logger.ts";
import type { SseEvent } from "../lib/sse-event.ts";
import type { Pack } from "../packs/types.ts";
import { refusalError } from "../billing/charge.ts";
import type { LedgerEntry } from "../billing/ledger.ts";
import { PRICES } from "../billing/prices.ts";
import { openJob } from "../settlement/jobs.ts";
import type { SettleOutcome } from "../settlement/detached.ts";
import { JOB_TIMEOUT_MS } from "../settlement/timeouts.ts";
import { siteFacts } from "../assess/facts.ts";
import { scoreSite } from "../scoring/index.ts";
import type { ParsedCsv } from "./csv.ts";
import { locateRow } from "./locate.ts";
import { siteError, siteResult } from "./payload.ts";

export interface BatchContext {
  db: Db;
  orgId: string;
  userId: string;
  packs: readonly Pack[];
}

export interface ChargedBatch {
  batchId: string;
  debit: LedgerEntry;
  cost: number;
  replayed: boolean;
}

/** Settles the batch's job given how many rows were scored; never throws (a failure is an outcome). */
export type SettleBatch = (scored: number) => Promise<SettleOutcome>;

/** Posts the one `usage` debit for the whole file with its job, or throws the structured 402 without charging. */
export async function chargeBatch(ctx: BatchContext, parsed: ParsedCsv, idempotencyKey: string): Promise<ChargedBatch> {
  const n = parsed.rows.length;
  const opened = await openJob(ctx.db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    action: "batch_score",
    units: n,
    unitPrice: PRICES.batchScorePerRow,
    idempotencyKey,
    description: `Batch scoring of ${n} site${n === 1 ? "" : "s"}`,
    timeoutMs: JOB_TIMEOUT_MS.batch_score,
  });
  if (!opened.ok) throw refusalError(opened);
  // A replayed key returns the original job: the batch keeps the id it was first charged under.
  const { job, debit, replayed } = opened;
  return { batchId: job.id, debit, cost: job.charged, replayed };
}

const DEFERRED =
  "The refund could not be written yet: the database did not answer. This batch is settled automatically within a few minutes; " +
  "until the scored rows are confirmed, the whole charge is refunded.";

/** The events of a charged batch. Whatever happens, the job is settled (or left to the sweep) before it ends. */
export async function* runBatch(
  ctx: BatchContext,
  parsed: ParsedCsv,
  charged: ChargedBatch,
  settle: SettleBatch,
): AsyncGenerator<SseEvent> {
  const { batchId, cost } = charged;
  let scored = 0;
  let failed = 0;
  let settling: Promise<SettleOutcome> | undefined;
  const settleOnce = () => (settling ??= settle(scored));
  try {
    yield {
      event: "batch_start",
      data: {
        batch_id: batchId,
        mode: parsed.mode,
        rows: parsed.rows.length,
        cost,
        balance: charged.debit.balance_after,
        replayed: charged.replayed,
        notes: parsed.notes,
      },
    };
    let failure: unknown;
    try {
      for (const row of parsed.rows) {
        const located = locateRow(ctx.packs, row);
        if (!located.ok) {
          failed += 1;
          yield { event: "site_error", data: siteError(row, located.detail) };
          continue;
        }
        const result = scoreSite(siteFacts(ctx.packs, located.parcel));
        scored += 1;
        yield { event: "site_result", data: siteResult(row, located.parcel, result) };
      }
    } catch (err) {
      failure = err;
    }
    // Only what is committed is reported: the refund is named after its transaction, never before.
    const outcome = await settleOnce();
    if (failure !== undefined) {
      logger.error("batch failed part-way", { batch_id: batchId, error: failure });
      const detail = outcome.ok
        ? `Internal server error after ${scored} of ${parsed.rows.length} rows: the ${parsed.rows.length - scored} rows not scored were refunded (${outcome.settlement.refunded} credits)`
        : `Internal server error after ${scored} of ${parsed.rows.length} rows. ${DEFERRED}`;
      yield { event: "error", data: { detail } };
      return;
    }
    const common = { batch_id: batchId, scored, failed, charged: cost, replayed: charged.replayed };
    if (outcome.ok) {
      yield {
        event: "batch_complete",
        data: {
          ...common,
          refunded: outcome.settlement.refunded,
          balance: outcome.settlement.balance,
          settlement: "settled",
        },
      };
    } else {
      logger.error("batch settlement deferred to the sweep", { batch_id: batchId, error: outcome.error });
      yield {
        event: "batch_complete",
        data: { ...common, refunded: 0, balance: null, settlement: "deferred", detail: DEFERRED },
      };
    }
  } finally {
    // Reached without settling only when the consumer abandoned the generator: settle all the same.
    await settleOnce();
  }
}
