// A batch's stored copy while it streams (architecture section 5, "stored results"): the batch is recorded before
// batch_start names it, each row is written before it is sent, and rows are marked delivered once the client took them
// (with the next write). A result is also shown once its job counts it done, so whatever the job charges is shown.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/** Paid results (a batch's rows, a report's PDF) are kept this long for the organisation that paid. */
export const RESULTS_KEPT_DAYS = 30;

export interface BatchHeader {
  batchId: string;
  /** This request's job: the first one, a retry's own, or (for a free replay) the key's last. */
  jobId: string;
  orgId: string;
  userId: string | null;
  filename: string;
  mode: "latlon" | "lot";
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

export interface BatchRecord {
  /** Writes a row before it is sent; in the same statement marks every row before `sent` delivered. */
  store(row: StoredRowInput, sent: number): Promise<void>;
  /** Marks every row before `sent` delivered (after the last row the client took). */
  delivered(sent: number): Promise<void>;
}

const FILENAME_MAX = 200;

/** Writes a row not yet delivered; a row already delivered (marked, or charged by its job) is kept as first sent. */
const insertRow = (h: BatchHeader, row: StoredRowInput) => sql`
  insert into stored_batch_rows (batch_id, idx, job_id, kind, model_version, charge_seq, data)
  values (${h.batchId}, ${row.index}, ${h.jobId}, ${row.kind}, ${row.modelVersion}, ${row.chargeSeq},
          ${JSON.stringify(row.data)}::json)
  on conflict (batch_id, idx) do update
    set job_id = excluded.job_id, kind = excluded.kind, model_version = excluded.model_version,
        charge_seq = excluded.charge_seq, data = excluded.data, stored_at = now()
    where not stored_batch_rows.delivered and not coalesce(stored_batch_rows.charge_seq <= (
      select j.units_done from charged_jobs j where j.id = stored_batch_rows.job_id), false)`;

/**
 * Records the batch (its first upload creates it; a retry adds its job to it) in one statement, and returns the writer
 * of its rows.
 */
export async function openBatchRecord(db: Db, h: BatchHeader): Promise<BatchRecord> {
  const filename = h.filename.slice(0, FILENAME_MAX) || "sites.csv";
  const batch = sql`
    insert into stored_batches (id, org_id, user_id, filename, mode, rows, expires_at)
    values (${h.batchId}, ${h.orgId}, ${h.userId}, ${filename}, ${h.mode}, ${h.rows},
            now() + ${RESULTS_KEPT_DAYS} * interval '1 day')
    on conflict (id) do nothing`;
  const link = sql`
    insert into stored_batch_jobs (job_id, batch_id) values (${h.jobId}, ${h.batchId})
    on conflict (job_id) do nothing`;
  // Foreign keys are checked at the end of the statement, when the batch row exists.
  await db.execute(sql`with batch as (${batch}) ${link}`);
  const mark = (sent: number) => sql`
    update stored_batch_rows set delivered = true
    where batch_id = ${h.batchId} and idx < ${sent} and not delivered`;
  return {
    async store(row, sent) {
      await db.execute(sql`with marked as (${mark(sent)}) ${insertRow(h, row)}`);
    },
    async delivered(sent) {
      if (sent > 0) await db.execute(mark(sent));
    },
  };
}
