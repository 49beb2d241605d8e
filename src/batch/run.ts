// A batch: charged up front as a job, every row scored and stored, then sent in order and settled for the results the
// client took: rows that could not be scored, and rows never delivered (or never kept) because the client left, are
// refunded. Three statements in all (charge, store, settle), plus one lease renewal per half timeout of streaming.
import { ConflictError } from "../errors.ts";
import { logger } from "../logger.ts";
import { reserve, type Payer, type ResumableWork } from "../credits/charged-work.ts";
import type { SettleOutcome } from "../credits/detached.ts";
import type { Lease } from "../credits/lease.ts";
import type { Db } from "../db/client.ts";
import type { ParsedCsv } from "./csv.ts";
import { PagedPackError } from "../packs/paged/index.ts";
import type { PackScope } from "../packs/scope.ts";
import { BatchDelivery } from "./delivery.ts";
import { eventOf, prepareRows } from "./prepare.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";
import type { BatchEvent } from "../routes/schemas/batch.ts";
import { type BatchHeader, markDelivered, recordBatch } from "./record.ts";

export interface BatchContext {
  payer: Payer;
  packs: PackScope;
  /** The uploaded file's name, shown with the stored batch. */
  filename?: string;
  /** The organisation's valuation assumptions: each result row's `value` names their version. */
  assumptions?: AssumptionsDocument;
}

const RUNNING =
  "This upload is still being delivered to another request under the same Idempotency-Key. Retry once that one has ended: " +
  "the rows it paid for are then sent again free.";

/**
 * Charges the file's rows not yet paid under `key` (all of them the first time) in one `usage` entry with its
 * job, or throws the structured 402 without charging, or 409 while another request is delivering the same work.
 * Without a key every upload is new work.
 */
export async function chargeBatch(
  ctx: BatchContext,
  parsed: ParsedCsv,
  key: string | undefined,
): Promise<ResumableWork> {
  const n = parsed.rows.length;
  const work = await reserve(ctx.payer, {
    action: "batch_score",
    units: n,
    key,
    description: `Batch scoring of ${n} site${n === 1 ? "" : "s"}`,
  });
  // Its rows are charged to that request's job until it settles: serving them here too would give them away.
  if (work.running) throw new ConflictError(RUNNING);
  return work;
}

const DEFERRED =
  "The refund could not be written yet: the database did not answer. This batch is settled automatically within a few minutes; " +
  "until the scored rows are confirmed, the whole charge is refunded.";

const unstoredDetail = (taken: number, total: number, refunded: string) =>
  `The results could not be stored after ${taken} of ${total} rows, so no more were sent: a result is sent only once it is kept. ` +
  `${refunded} Upload the same file with the same Idempotency-Key to receive the rest; the rows paid for are not charged again.`;

const lostDetail = (taken: number) =>
  `This batch was settled before it finished (it outlived its deadline), so no more rows are sent: ${taken} results were delivered. ` +
  "Upload the same file with the same Idempotency-Key to receive the rest; the rows paid for are not charged again.";

/** Why the rows stopped: all were sent, or the job was lost, a row could not be kept, or one could not be scored. */
type Ending = { kind: "complete" } | { kind: "lost" } | { kind: "unstored" } | { kind: "failed"; error: unknown };

/** The last event, naming only what the settlement committed (`outcome`; undefined for a free replay). */
function lastEvent(
  ending: Ending,
  outcome: SettleOutcome | undefined,
  delivery: BatchDelivery,
  done: { batch_id: string; replayed: boolean; charged: number; total: number; balance: number },
): BatchEvent {
  const { total, balance, charged, ...common } = done;
  const committed = outcome === undefined || outcome.ok;
  const refundedNow = `(${outcome?.ok ? outcome.settlement.refunded : 0} credits)`;
  const error = (detail: string): BatchEvent => ({ event: "error", data: { detail } });
  switch (ending.kind) {
    case "lost":
      return error(lostDetail(delivery.scored));
    case "unstored": {
      const refunded = committed ? `The rows without a delivered result were refunded ${refundedNow}.` : DEFERRED;
      return error(unstoredDetail(delivery.scored, total, refunded));
    }
    case "failed": {
      // A refused pack names itself (a 503 anywhere else); anything else stays an internal error.
      const what = ending.error instanceof PagedPackError ? ending.error.detail : "Internal server error";
      const after = `${what} after ${delivery.scored} of ${total} rows`;
      return error(
        committed
          ? `${after}: the rows without a delivered result were refunded ${refundedNow}`
          : `${after}. ${DEFERRED}`,
      );
    }
    case "complete": {
      const counts = { ...common, scored: delivery.scored, failed: delivery.failed, charged };
      if (outcome && !outcome.ok) {
        const data = { ...counts, refunded: 0, balance: null, settlement: "deferred", detail: DEFERRED } as const;
        return { event: "batch_complete", data };
      }
      const settled = outcome?.settlement;
      const data = {
        ...counts,
        refunded: settled?.refunded ?? 0,
        balance: settled?.balance ?? balance,
        settlement: "settled",
      } as const;
      return { event: "batch_complete", data };
    }
  }
}

/** The stored batch as this request records it. */
const headerOf = (ctx: BatchContext, parsed: ParsedCsv, charged: ResumableWork): BatchHeader => ({
  batchId: charged.firstId,
  jobId: charged.id,
  orgId: ctx.payer.orgId,
  userId: ctx.payer.userId,
  filename: ctx.filename ?? "sites.csv",
  mode: parsed.mode,
  rows: parsed.rows.length,
});

const notRecorded = (outcome: SettleOutcome | undefined): BatchEvent => {
  const refunded = outcome?.ok ? `The ${outcome.settlement.refunded} credits charged were refunded.` : DEFERRED;
  const detail = `Service unavailable: the batch could not be recorded, so no row was sent. ${refunded}`;
  return { event: "error", data: { detail } };
};

/**
 * Settles once, for the results taken so far, marking the rows taken delivered in the same statement; later calls get
 * the first outcome. A free replay has no job: it only marks its rows (undefined outcome).
 */
function settler(db: Db, charged: ResumableWork, delivery: BatchDelivery, lease: Lease | undefined) {
  let settling: Promise<SettleOutcome | undefined> | undefined;
  const settle = async (): Promise<SettleOutcome | undefined> => {
    lease?.stop();
    const mark = delivery.sent > 0 ? markDelivered(charged.firstId, delivery.sent) : undefined;
    if (!charged.replayed) return charged.settle(delivery.owed, mark, delivery.refundWhy(charged.units));
    // Best effort: what a free replay sends was delivered before, and a charged result is shown by its charge.
    if (mark) {
      const ids = { batch_id: charged.firstId, job_id: charged.id };
      await db.execute(mark).catch((error) => logger.warn("batch rows not marked delivered", { ...ids, error }));
    }
    return undefined;
  };
  return () => {
    settling ??= settle();
    return settling;
  };
}

/**
 * The events of a charged batch. Every row is scored and stored (record.ts) before batch_start names the batch, so
 * whatever the stream sends is already kept. The first `paidUnits` results were paid for by earlier requests under
 * the key and are free; each one after is charged to this request's job once the client has taken it. Whatever
 * happens, the job is settled (or left to the sweep) before the generator ends.
 */
export async function* runBatch(
  ctx: BatchContext,
  parsed: ParsedCsv,
  charged: ResumableWork,
): AsyncGenerator<BatchEvent> {
  const ids = { batch_id: charged.firstId, job_id: charged.id };
  const delivery = new BatchDelivery(charged.paidUnits);
  // A replay with nothing unpaid charges nothing, so it has no job of its own to hold or settle.
  const lease = charged.replayed ? undefined : charged.lease();
  const settle = settler(ctx.payer.db, charged, delivery, lease);
  try {
    const prepared = await prepareRows(ctx.packs, parsed.rows, delivery, charged.firstId, ctx.assumptions);
    let kept: number;
    try {
      kept = await recordBatch(
        ctx.payer.db,
        headerOf(ctx, parsed, charged),
        prepared.rows.map((p) => p.row),
      );
    } catch (error) {
      logger.error("batch not recorded: nothing sent", { ...ids, error });
      yield notRecorded(await settle());
      return;
    }
    const common = { batch_id: charged.firstId, replayed: charged.replayed || charged.firstId !== charged.id };
    const cost = charged.replayed ? 0 : charged.charged;
    const { mode, notes } = parsed;
    const rows = parsed.rows.length;
    yield { event: "batch_start", data: { ...common, mode, rows, cost, balance: charged.balance, notes } };
    // Rows past what was kept, or past one that could not be scored, are never sent.
    let ending: Ending =
      kept < prepared.rows.length
        ? { kind: "unstored" }
        : prepared.failure === undefined
          ? { kind: "complete" }
          : { kind: "failed", error: prepared.failure };
    try {
      for (const p of prepared.rows.slice(0, kept)) {
        // A row to be charged goes out only while the job is still this stream's (the sweep has not settled it).
        if (p.event === "site_result" && lease && delivery.nextResultCharged && !(await lease.holds())) {
          ending = { kind: "lost" };
          break;
        }
        yield eventOf(p);
        delivery.took(p.row.kind);
        lease?.note(delivery.owed);
      }
    } catch (error) {
      ending = { kind: "failed", error };
    }
    if (ending.kind === "failed") logger.error("batch failed part-way", { ...ids, error: ending.error });
    // Only what is committed is reported: the refund is named after its transaction, never before.
    const outcome = await settle();
    yield lastEvent(ending, outcome, delivery, { ...common, charged: cost, total: rows, balance: charged.balance });
  } finally {
    // Reached without settling only when the client left: what it took stands, the rest is refunded.
    await settle();
  }
}
