// A batch's stored copy (README, "Stored results"): the batch and every row are written in one statement
// before batch_start names it, and rows are marked delivered with the settlement, once the client took them. A result
// is also shown once its job counts it done, so whatever the job charges is shown.
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { logger } from "../logger.ts";
import type { CsvMode } from "./csv.ts";

/** Paid results (a batch's rows, a report's PDF) are kept this long for the organisation that paid. */
export const RESULTS_KEPT_DAYS = 30;

export interface BatchHeader {
  batchId: string;
  /** This request's job: the first one, a retry's own, or (for a free replay) the key's last. */
  jobId: string;
  orgId: string;
  userId: string | null;
  filename: string;
  mode: CsvMode;
  rows: number;
}

export interface StoredRowInput {
  index: number;
  kind: "result" | "error";
  modelVersion: string | null;
  /** A result this job charges for: its place among the job's charged units (shown once the job counts it done). */
  chargeSeq: number | null;
  /** The event's data exactly as the stream sends it. */
  data: unknown;
}

const FILENAME_MAX = 200;

const rowValues = (h: BatchHeader, row: StoredRowInput) =>
  sql`(${h.batchId}, ${row.index}, ${h.jobId}, ${row.kind}, ${row.modelVersion}, ${row.chargeSeq},
       ${JSON.stringify(row.data)}::json)`;

/** Writes rows not yet delivered; a row already delivered (marked, or charged by its job) is kept as first sent. */
const insertRows = (h: BatchHeader, rows: readonly StoredRowInput[]) => sql`
  insert into stored_batch_rows (batch_id, idx, job_id, kind, model_version, charge_seq, data)
  values ${sql.join(
    rows.map((row) => rowValues(h, row)),
    sql`, `,
  )}
  on conflict (batch_id, idx) do update
    set job_id = excluded.job_id, kind = excluded.kind, model_version = excluded.model_version,
        charge_seq = excluded.charge_seq, data = excluded.data, stored_at = now()
    where not stored_batch_rows.delivered and not coalesce(stored_batch_rows.charge_seq <= (
      select j.units_done from charged_jobs j where j.id = stored_batch_rows.job_id), false)`;

/** The batch (its first upload creates it; a retry adds its job to it), as the leading clauses of a statement. */
function batchClauses(h: BatchHeader): SQL {
  const filename = h.filename.slice(0, FILENAME_MAX) || "sites.csv";
  return sql`
    with batch as (
      insert into stored_batches (id, org_id, user_id, filename, mode, rows, expires_at)
      values (${h.batchId}, ${h.orgId}, ${h.userId}, ${filename}, ${h.mode}, ${h.rows},
              now() + ${RESULTS_KEPT_DAYS} * interval '1 day')
      on conflict (id) do nothing
    ), link as (
      insert into stored_batch_jobs (job_id, batch_id) values (${h.jobId}, ${h.batchId})
      on conflict (job_id) do nothing
    )`;
}

/**
 * Records the batch and its rows in one statement (foreign keys are checked at its end, when the batch exists) and
 * returns how many rows, in order, are kept. Should a row be refused, the batch is recorded alone and the rows one by
 * one up to it. Throws when the batch itself cannot be recorded.
 */
export async function recordBatch(db: Db, h: BatchHeader, rows: readonly StoredRowInput[]): Promise<number> {
  const batch = batchClauses(h);
  try {
    await db.execute(rows.length > 0 ? sql`${batch} ${insertRows(h, rows)}` : sql`${batch} select 1`);
    return rows.length;
  } catch (err) {
    logger.warn("batch rows not stored together: storing them one by one", { batch_id: h.batchId, error: err });
  }
  await db.execute(sql`${batch} select 1`);
  for (const [kept, row] of rows.entries()) {
    try {
      await db.execute(insertRows(h, [row]));
    } catch (err) {
      logger.error("batch row not stored: the stream stops before it", {
        batch_id: h.batchId,
        idx: row.index,
        error: err,
      });
      return kept;
    }
  }
  return rows.length;
}

/** Marks every row before `sent` delivered: a data-modifying statement, alone or alongside the settlement. */
export const markDelivered = (batchId: string, sent: number): SQL => sql`
  update stored_batch_rows set delivered = true
  where batch_id = ${batchId} and idx < ${sent} and not delivered`;
