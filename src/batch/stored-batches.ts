// Stored batches read back for the organisation that paid (GET /batch, GET /batch/{id}), and swept once expired.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { CsvMode } from "./csv.ts";

const iso = (v: Date | string): string => new Date(v).toISOString();
const num = (v: string | number | null): number => Number(v ?? 0);

/** A delivered row as the stream sent it: the event's name and its data. */
export type StoredRow = { event: "site_result"; data: unknown } | { event: "site_error"; data: unknown };

export interface BatchPayment {
  job_id: string;
  /** The `usage` entry that charged for this request's rows. */
  ledger_entry_id: string;
  /** The `refund` entry of the rows not delivered, once settled with any. */
  refund_entry_id: string | null;
  status: "charged" | "settled";
  charged: number;
  refunded: number | null;
  created_at: string;
}

export interface BatchSummary {
  batch_id: string;
  filename: string;
  mode: CsvMode;
  /** Rows in the uploaded file. */
  file_rows: number;
  delivered: number;
  scored: number;
  failed: number;
  /** A request of this batch is still streaming (or not settled yet): more rows may come. */
  in_progress: boolean;
  created_at: string;
  expires_at: string;
}

export interface StoredBatch extends BatchSummary {
  /** The scoring models the rows were scored with (each result carries its own `feasibility.model_version`). */
  model_versions: string[];
  totals: { delivered: number; scored: number; failed: number; charged: number; refunded: number };
  paid_by: BatchPayment[];
  rows: StoredRow[];
}

interface SummaryRow extends Record<string, unknown> {
  id: string;
  filename: string;
  mode: CsvMode;
  rows: number;
  delivered: string | number;
  scored: string | number;
  in_progress: boolean;
  created_at: Date | string;
  expires_at: Date | string;
}

// A stored row `r` is shown once the client took it: marked delivered, or a result its job counts done (and charges).
const SHOWN = sql.raw(`(r.delivered or (r.charge_seq is not null
  and r.charge_seq <= (select j.units_done from charged_jobs j where j.id = r.job_id)))`);

// Counts of delivered rows and whether a job is still open, per batch `b`.
const SUMMARY = sql`
  b.id, b.filename, b.mode, b.rows, b.created_at, b.expires_at,
  (select count(*) from stored_batch_rows r where r.batch_id = b.id and ${SHOWN}) as delivered,
  (select count(*) from stored_batch_rows r where r.batch_id = b.id and ${SHOWN} and r.kind = 'result') as scored,
  exists (select 1 from stored_batch_jobs bj join charged_jobs j on j.id = bj.job_id
          where bj.batch_id = b.id and j.status = 'charged') as in_progress`;

function toSummary(r: SummaryRow): BatchSummary {
  const delivered = num(r.delivered);
  const scored = num(r.scored);
  return {
    batch_id: r.id,
    filename: r.filename,
    mode: r.mode,
    file_rows: Number(r.rows),
    delivered,
    scored,
    failed: delivered - scored,
    in_progress: r.in_progress,
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
  };
}

/** The organisation's batch as delivered, or null when it is unknown, another organisation's or expired. */
export async function getStoredBatch(db: Db, orgId: string, batchId: string): Promise<StoredBatch | null> {
  const res = await db.execute<
    SummaryRow & {
      rows_json: StoredRow[] | null;
      model_versions: string[] | null;
      paid_by: (Omit<BatchPayment, "charged" | "refunded"> & { charged: string; refunded: string | null })[] | null;
    }
  >(sql`
    select ${SUMMARY},
      (select json_agg(json_build_object('event', case when r.kind = 'result' then 'site_result' else 'site_error' end,
                                         'data', r.data) order by r.idx)
       from stored_batch_rows r where r.batch_id = b.id and ${SHOWN}) as rows_json,
      (select array_agg(distinct r.model_version order by r.model_version)
       from stored_batch_rows r where r.batch_id = b.id and ${SHOWN} and r.model_version is not null) as model_versions,
      (select json_agg(json_build_object('job_id', j.id, 'ledger_entry_id', j.debit_entry_id,
                                         'refund_entry_id', j.refund_entry_id, 'status', j.status,
                                         'charged', j.charged::text, 'refunded', j.refunded::text,
                                         'created_at', j.created_at) order by j.created_at, j.id)
       from stored_batch_jobs bj join charged_jobs j on j.id = bj.job_id where bj.batch_id = b.id) as paid_by
    from stored_batches b
    where b.id = ${batchId} and b.org_id = ${orgId} and b.expires_at > now()`);
  const row = res.rows[0];
  if (!row) return null;
  const summary = toSummary(row);
  const paid = (row.paid_by ?? []).map((p) => ({
    ...p,
    charged: Number(p.charged),
    refunded: p.refunded === null ? null : Number(p.refunded),
    created_at: iso(p.created_at),
  }));
  const sum = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x * 10000, 0)) / 10000;
  return {
    ...summary,
    model_versions: row.model_versions ?? [],
    totals: {
      delivered: summary.delivered,
      scored: summary.scored,
      failed: summary.failed,
      charged: sum(paid.map((p) => p.charged)),
      refunded: sum(paid.map((p) => p.refunded ?? 0)),
    },
    paid_by: paid,
    rows: row.rows_json ?? [],
  };
}

export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
}

/** One page of a listing with its position among `total` items. */
export function pageOf<T>(items: T[], page: number, pageSize: number, total: number): Page<T> {
  return { items, page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) };
}

/** The organisation's batches that have not expired, newest first. */
export async function listStoredBatches(
  db: Db,
  orgId: string,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<Page<BatchSummary>> {
  const [rows, count] = await Promise.all([
    db.execute<SummaryRow>(sql`
      select ${SUMMARY} from stored_batches b
      where b.org_id = ${orgId} and b.expires_at > now()
      order by b.created_at desc, b.id limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.execute<{ total: string | number }>(
      sql`select count(*) as total from stored_batches where org_id = ${orgId} and expires_at > now()`,
    ),
  ]);
  return pageOf(rows.rows.map(toSummary), page, pageSize, num(count.rows[0]?.total ?? 0));
}

const SWEEP_CHUNK = 500;

/** Deletes batches (their rows and job links with them) kept past their expiry; returns how many. */
export async function expireStoredBatches(db: Db, now: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const res = await db.execute<{ id: string }>(sql`
      delete from stored_batches where id in (
        select id from stored_batches where expires_at <= ${now.toISOString()}::timestamptz limit ${SWEEP_CHUNK})
      returning id`);
    deleted += res.rows.length;
    if (res.rows.length < SWEEP_CHUNK) return deleted;
  }
}
