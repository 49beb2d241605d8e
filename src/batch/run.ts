// A batch: charged up front as a job, each row scored in order, stored, sent, then settled for the results the client
// took: rows that could not be scored, and rows never delivered (or never kept) because the client left, are refunded.
import { ConflictError } from "../errors.ts";
import { logger } from "../logger.ts";
import type { SseEvent } from "../lib/sse-event.ts";
import { reserve, type Payer, type ResumableWork } from "../credits/charged-work.ts";
import type { SettleOutcome } from "../credits/detached.ts";
import { siteFacts } from "../assess/facts.ts";
import { scoreSite } from "../scoring/index.ts";
import type { CsvSiteRow, ParsedCsv } from "./csv.ts";
import { locateSite, pointsOf } from "./locate.ts";
import { PagedPackError } from "../packs/paged/errors.ts";
import { readAheadPoints } from "../packs/read-ahead.ts";
import type { PackScope } from "../packs/scope.ts";
import { siteError, siteResult } from "./payload.ts";
import { openBatchRecord, type BatchRecord, type StoredRowInput } from "./record.ts";

export interface BatchContext {
  payer: Payer;
  packs: PackScope;
  /** The uploaded file's name, shown with the stored batch. */
  filename?: string;
}

const RUNNING =
  "This upload is still being delivered to another request under the same Idempotency-Key. Retry once that one has ended: " +
  "the rows it paid for are then sent again free.";

/**
 * Charges the file's rows not yet paid under `key` (all of them the first time) in one `usage` entry with its
 * job, or throws the structured 402 without charging, or 409 while another request is delivering the same work.
 */
export async function chargeBatch(ctx: BatchContext, parsed: ParsedCsv, key: string): Promise<ResumableWork> {
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

/** The row store failed: the stream stops before sending a row the server does not keep. */
class UnstoredRow extends Error {}

const lostDetail = (taken: number) =>
  `This batch was settled before it finished (it outlived its deadline), so no more rows are sent: ${taken} results were delivered. ` +
  "Upload the same file with the same Idempotency-Key to receive the rest; the rows paid for are not charged again.";

type Prepared = { event: "site_result" | "site_error"; row: StoredRowInput };

/**
 * The events of a charged batch. The first `paidUnits` results were paid for by earlier requests under the key and
 * are free; each one after is charged to this request's job once the client has taken it. Every row is stored before
 * it is sent (record.ts). Whatever happens, the job is settled (or left to the sweep) before the generator ends.
 */
export async function* runBatch(
  ctx: BatchContext,
  parsed: ParsedCsv,
  charged: ResumableWork,
): AsyncGenerator<SseEvent> {
  const total = parsed.rows.length;
  const free = charged.paidUnits;
  const cost = charged.replayed ? 0 : charged.charged;
  let scored = 0;
  let failed = 0;
  // Results the client has taken: the stream resumes after a yield only once the consumer pulls the next event.
  let taken = 0;
  // Rows (results and errors) the client has taken, and how many of them the store has marked delivered.
  let sent = 0;
  let marked = 0;
  const owed = () => Math.max(0, taken - free);
  // A replay with nothing unpaid charges nothing, so it has no job of its own to hold or settle.
  const lease = charged.replayed ? undefined : charged.lease();
  const settleOnce = (): Promise<SettleOutcome> | undefined => {
    lease?.stop();
    return charged.replayed ? undefined : charged.settle(owed());
  };
  const common = { batch_id: charged.firstId, replayed: charged.replayed || charged.firstId !== charged.id };

  /** Locates and scores a row: the event to send and the row to store. */
  const prepare = async (row: CsvSiteRow): Promise<Prepared> => {
    const { located, packs } = await locateSite(ctx.packs, row);
    if (!located.ok) {
      const data = siteError(row, located.detail);
      return {
        event: "site_error",
        row: { index: row.index, kind: "error", modelVersion: null, chargeSeq: null, data },
      };
    }
    const result = scoreSite(siteFacts(packs, located.parcel));
    const data = siteResult(row, located.parcel, result);
    return {
      event: "site_result",
      row: { index: row.index, kind: "result", modelVersion: result.modelVersion, chargeSeq: null, data },
    };
  };
  // A result sent now is this job's next charged unit, unless earlier requests paid for it.
  const withSeq = (p: Prepared): StoredRowInput => ({
    ...p.row,
    chargeSeq: p.event === "site_result" && taken >= free ? owed() + 1 : null,
  });

  let record: BatchRecord | undefined;
  const store = async (p: Prepared) => {
    if (!record) throw new UnstoredRow("the batch was not recorded");
    try {
      await record.store(withSeq(p), sent);
      marked = sent;
    } catch (err) {
      throw new UnstoredRow("a row could not be stored", { cause: err });
    }
  };
  /** Marks the rows taken since the last write (best effort: a result the job charged is shown by its charge anyway). */
  const markTaken = async () => {
    if (!record || marked === sent) return;
    try {
      await record.delivered(sent);
      marked = sent;
    } catch (err) {
      logger.warn("batch rows not marked delivered", { batch_id: charged.firstId, job_id: charged.id, error: err });
    }
  };

  try {
    // What batch_start names must already exist: the stored batch is recorded before it is sent.
    try {
      record = await openBatchRecord(ctx.payer.db, {
        batchId: charged.firstId,
        jobId: charged.id,
        orgId: ctx.payer.orgId,
        userId: ctx.payer.userId,
        filename: ctx.filename ?? "sites.csv",
        mode: parsed.mode,
        rows: total,
      });
    } catch (err) {
      logger.error("batch not recorded: nothing sent", { batch_id: charged.firstId, job_id: charged.id, error: err });
      const outcome = await settleOnce();
      const refunded = outcome?.ok ? `The ${outcome.settlement.refunded} credits charged were refunded.` : DEFERRED;
      yield {
        event: "error",
        data: { detail: `Service unavailable: the batch could not be recorded, so no row was sent. ${refunded}` },
      };
      return;
    }
    yield {
      event: "batch_start",
      data: { ...common, mode: parsed.mode, rows: total, cost, balance: charged.balance, notes: parsed.notes },
    };
    let failure: unknown;
    let lost = false;
    try {
      // One plan for every point's pages, read before the first row: at most one read a row, rows near each other
      // sharing reads. A failed read-ahead is no row's failure: each row then reads (and reports) its own.
      await readAheadPoints(ctx.packs.paged, pointsOf(parsed.rows)).catch((err: unknown) =>
        logger.warn("batch read-ahead failed", { batch_id: charged.firstId, error: err }),
      );
      for (const row of parsed.rows) {
        const p = await prepare(row);
        // A row to be charged goes out only while the job is still this stream's (the sweep has not settled it).
        if (p.event === "site_result" && lease && taken >= free && !(await lease.holds())) {
          lost = true;
          break;
        }
        // What the stream sends is already kept: a row that cannot be stored is not sent.
        await store(p);
        if (p.event === "site_error") {
          failed += 1;
          yield { event: p.event, data: p.row.data };
          sent += 1;
          continue;
        }
        scored += 1;
        yield { event: p.event, data: p.row.data };
        taken += 1;
        sent += 1;
        lease?.note(owed());
      }
    } catch (err) {
      failure = err;
    }
    await markTaken();
    // Only what is committed is reported: the refund is named after its transaction, never before.
    const outcome = await settleOnce();
    if (lost) {
      yield { event: "error", data: { detail: lostDetail(taken) } };
      return;
    }
    const refundedNow = `(${outcome?.ok ? outcome.settlement.refunded : 0} credits)`;
    if (failure instanceof UnstoredRow) {
      logger.error("batch stopped: a row could not be stored", {
        batch_id: charged.firstId,
        job_id: charged.id,
        error: failure.cause ?? failure,
      });
      const refunded =
        outcome === undefined || outcome.ok
          ? `The rows without a delivered result were refunded ${refundedNow}.`
          : DEFERRED;
      yield { event: "error", data: { detail: unstoredDetail(taken, total, refunded) } };
      return;
    }
    if (failure !== undefined) {
      logger.error("batch failed part-way", { batch_id: charged.firstId, job_id: charged.id, error: failure });
      // A refused pack names itself (a 503 anywhere else); anything else stays an internal error.
      const what = failure instanceof PagedPackError ? failure.detail : "Internal server error";
      const detail =
        outcome === undefined || outcome.ok
          ? `${what} after ${taken} of ${total} rows: the rows without a delivered result were refunded ${refundedNow}`
          : `${what} after ${taken} of ${total} rows. ${DEFERRED}`;
      yield { event: "error", data: { detail } };
      return;
    }
    const done = { ...common, scored, failed, charged: cost };
    if (outcome === undefined || outcome.ok) {
      const settled = outcome?.settlement;
      yield {
        event: "batch_complete",
        data: {
          ...done,
          refunded: settled?.refunded ?? 0,
          balance: settled?.balance ?? charged.balance,
          settlement: "settled",
        },
      };
    } else {
      yield {
        event: "batch_complete",
        data: { ...done, refunded: 0, balance: null, settlement: "deferred", detail: DEFERRED },
      };
    }
  } finally {
    // Reached without settling only when the client left: what it took stands, the rest is refunded.
    await markTaken();
    await settleOnce();
  }
}
