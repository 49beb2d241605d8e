// Stored reports read back for the organisation that paid (GET /report, GET /report/{id}), and swept once expired.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type Page, pageOf } from "../batch/stored-batches.ts";

export interface ReportSummary {
  report_id: string;
  filename: string;
  location: string | null;
  pages: number;
  bytes: number;
  sha256: string;
  /** The `usage` entry that paid for the report. */
  ledger_entry_id: string;
  created_at: string;
  expires_at: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  filename: string;
  location: string | null;
  pages: number;
  bytes: number;
  sha256: string;
  object_key: string;
  debit_entry_id: string;
  created_at: Date | string;
  expires_at: Date | string;
}

const iso = (v: Date | string): string => new Date(v).toISOString();

function toSummary(r: Row): ReportSummary {
  return {
    report_id: r.id,
    filename: r.filename,
    location: r.location,
    pages: Number(r.pages),
    bytes: Number(r.bytes),
    sha256: r.sha256,
    ledger_entry_id: r.debit_entry_id,
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
  };
}

// A report is shown once its charge stands: its job settled with the PDF delivered (a refunded one was never paid for).
const visible = (orgId: string) => sql`
  from stored_reports s join charged_jobs j on j.id = s.id
  where s.org_id = ${orgId} and s.expires_at > now() and j.status = 'settled' and j.units_done > 0`;

const COLUMNS = sql`s.id, s.filename, s.location, s.pages, s.bytes, s.sha256, s.object_key, j.debit_entry_id, s.created_at, s.expires_at`;

export interface StoredReport {
  summary: ReportSummary;
  body: ReadableStream;
}

/** The organisation's paid report and its PDF, or null when unknown, another organisation's, expired or missing. */
export async function getStoredReport(
  db: Db,
  bucket: R2Bucket,
  orgId: string,
  reportId: string,
): Promise<StoredReport | null> {
  const res = await db.execute<Row>(sql`select ${COLUMNS} ${visible(orgId)} and s.id = ${reportId}`);
  const row = res.rows[0];
  if (!row) return null;
  const obj = await bucket.get(row.object_key);
  return obj ? { summary: toSummary(row), body: obj.body } : null;
}

/** The organisation's paid reports that have not expired, newest first. */
export async function listStoredReports(
  db: Db,
  orgId: string,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<Page<ReportSummary>> {
  const [rows, count] = await Promise.all([
    db.execute<Row>(
      sql`select ${COLUMNS} ${visible(orgId)} order by s.created_at desc, s.id limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
    db.execute<{ total: string | number }>(sql`select count(*) as total ${visible(orgId)}`),
  ]);
  return pageOf(rows.rows.map(toSummary), page, pageSize, Number(count.rows[0]?.total ?? 0));
}

const SWEEP_CHUNK = 500;

/** Deletes reports kept past their expiry: the PDFs first, then their rows (so no PDF outlives its row). */
export async function expireStoredReports(db: Db, bucket: R2Bucket, now: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const due = await db.execute<{ id: string; object_key: string }>(sql`
      select id, object_key from stored_reports where expires_at <= ${now.toISOString()}::timestamptz
      order by expires_at limit ${SWEEP_CHUNK}`);
    const ids = due.rows.map((r) => r.id);
    if (ids.length === 0) return deleted;
    await bucket.delete(due.rows.map((r) => r.object_key));
    await db.execute(
      sql`delete from stored_reports where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    deleted += ids.length;
    if (ids.length < SWEEP_CHUNK) return deleted;
  }
}
