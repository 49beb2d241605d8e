// A batch: charged once up front as a job, each row scored in order, then settled for the results the
// client took: rows that could not be scored, and rows never delivered because the client left, are refunded.
import { logger } from "../logger.ts";
import type { SseEvent } from "../lib/sse-event.ts";
import type { Pack } from "../packs/types.ts";
import { reserve, type ChargedWork, type Payer } from "../settlement/charged-work.ts";
import type { SettleOutcome } from "../settlement/detached.ts";
import { siteFacts } from "../assess/facts.ts";
import { scoreSite } from "../scoring/index.ts";
import type { ParsedCsv } from "./csv.ts";
import { locateRow } from "./locate.ts";
import { siteError, siteResult } from "./payload.ts";

export interface BatchContext {
  payer: Payer;
  packs: readonly Pack[];
}

/** The one `usage` debit for the whole file with its job, or the structured 402 without charging. */
export function chargeBatch(ctx: BatchContext, parsed: ParsedCsv, key: string): Promise<ChargedWork> {
  const n = parsed.rows.length;
  return reserve(ctx.payer, {
    action: "batch_score",
    units: n,
    key,
    description: `Batch scoring of ${n} site${n === 1 ? "" : "s"}`,
  });
}

const DEFERRED =
  "The refund could not be written yet: the database did not answer. This batch is settled automatically within a few minutes; " +
  "until the scored rows are confirmed, the whole charge is refunded.";

/** The events of a charged batch. Whatever happens, the job is settled (or left to the sweep) before it ends. */
export async function* runBatch(ctx: BatchContext, parsed: ParsedCsv, charged: ChargedWork): AsyncGenerator<SseEvent> {
  const { id: batchId, charged: cost } = charged;
  let scored = 0;
  // Results the client has taken: the stream resumes after a yield only once its event was read.
  let delivered = 0;
  let failed = 0;
  const settleOnce = (): Promise<SettleOutcome> => charged.settle(delivered);
  try {
    yield {
      event: "batch_start",
      data: {
        batch_id: batchId,
        mode: parsed.mode,
        rows: parsed.rows.length,
        cost,
        balance: charged.balance,
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
        delivered += 1;
      }
    } catch (err) {
      failure = err;
    }
    // Only what is committed is reported: the refund is named after its transaction, never before.
    const outcome = await settleOnce();
    if (failure !== undefined) {
      logger.error("batch failed part-way", { batch_id: batchId, error: failure });
      const detail = outcome.ok
        ? `Internal server error after ${delivered} of ${parsed.rows.length} rows: the ${parsed.rows.length - delivered} rows without a delivered result were refunded (${outcome.settlement.refunded} credits)`
        : `Internal server error after ${delivered} of ${parsed.rows.length} rows. ${DEFERRED}`;
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
      yield {
        event: "batch_complete",
        data: { ...common, refunded: 0, balance: null, settlement: "deferred", detail: DEFERRED },
      };
    }
  } finally {
    // Reached without settling only when the client left: what it took stands, the rest is refunded.
    await settleOnce();
  }
}
