// A batch: charged once up front, each row scored in order, unscored rows refunded in one entry.
import type { Db } from "../db/client.ts";
import type { SseEvent } from "../lib/sse-event.ts";
import type { Pack } from "../packs/types.ts";
import { charge } from "../billing/charge.ts";
import { grant, type LedgerEntry } from "../billing/ledger.ts";
import { getBalance } from "../billing/orgs.ts";
import { PRICES, costOf } from "../billing/prices.ts";
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

/** Posts the one `usage` debit for the whole file, or throws the structured 402 without charging. */
export async function chargeBatch(ctx: BatchContext, parsed: ParsedCsv, idempotencyKey: string): Promise<ChargedBatch> {
  const cost = costOf(parsed.rows.length, PRICES.batchScorePerRow);
  const batchId = crypto.randomUUID();
  const debit = await charge({
    db: ctx.db,
    orgId: ctx.orgId,
    userId: ctx.userId,
    amount: cost,
    idempotencyKey,
    actionType: "batch_score",
    relatedEntityId: batchId,
    description: `Batch scoring of ${parsed.rows.length} site${parsed.rows.length === 1 ? "" : "s"}`,
  });
  // A replayed key returns the original entry: the batch keeps the id it was first charged under.
  const replayed = debit.related_entity_id !== batchId;
  return { batchId: debit.related_entity_id ?? batchId, debit, cost, replayed };
}

/** The events of a charged batch. Whatever happens, rows not scored are refunded before it ends. */
export async function* runBatch(ctx: BatchContext, parsed: ParsedCsv, charged: ChargedBatch): AsyncGenerator<SseEvent> {
  const { batchId, cost } = charged;
  yield {
    event: "batch_start",
    data: { batch_id: batchId, mode: parsed.mode, rows: parsed.rows.length, cost, balance: charged.debit.balance_after, replayed: charged.replayed, notes: parsed.notes },
  };
  let scored = 0;
  let failed = 0;
  let settled = false;
  const settle = async () => {
    settled = true;
    const unscored = parsed.rows.length - scored;
    const refunded = costOf(unscored, PRICES.batchScorePerRow);
    if (refunded > 0) {
      await grant({
        db: ctx.db,
        orgId: ctx.orgId,
        userId: ctx.userId,
        amount: refunded,
        type: "refund",
        idempotencyKey: `batch-refund:${batchId}`,
        relatedEntityId: batchId,
        description: `Refund for ${unscored} site${unscored === 1 ? "" : "s"} that could not be scored`,
      });
    }
    return refunded;
  };
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
    const refunded = await settle();
    const { balance } = await getBalance({ db: ctx.db, orgId: ctx.orgId });
    yield {
      event: "batch_complete",
      data: { batch_id: batchId, scored, failed, charged: cost, refunded, balance, replayed: charged.replayed },
    };
  } finally {
    // Reached early on an exception or an abandoned stream: refund everything not scored.
    if (!settled) await settle();
  }
}
