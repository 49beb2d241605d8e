// Ledger reads for one organisation, newest first, each debit linked to the stored result it paid for.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { LEDGER_COLUMNS, toEntry, type LedgerEntry, type LedgerRow } from "./entry.ts";

/** The stored result a debit paid for (GET /batch/{id} or GET /report/{id}), while it is kept. */
export interface ResultLink {
  kind: "batch" | "report";
  id: string;
}

export type ListedEntry = LedgerEntry & { result: ResultLink | null };

type Row = LedgerRow & { result_kind: "batch" | "report" | null; result_id: string | null };

// A debit names its job (related_entity_id); a batch's jobs are linked to it, a report's id is its job's.
const JOB =
  "(case when credit_ledger.related_entity_id ~ '^[0-9a-fA-F-]{36}$' then credit_ledger.related_entity_id::uuid end)";
const RESULT_ID = sql.raw(`case when type = 'usage' and action_type = 'batch_score' then (
    select b.id::text from stored_batch_jobs bj join stored_batches b on b.id = bj.batch_id
    where bj.job_id = ${JOB} and b.expires_at > now())
  when type = 'usage' and action_type = 'report' then (
    select s.id::text from stored_reports s join charged_jobs j on j.id = s.id
    where s.id = ${JOB} and s.expires_at > now() and j.status = 'settled' and j.units_done > 0)
  end as result_id`);
const COLUMNS = sql`${LEDGER_COLUMNS}, case action_type when 'batch_score' then 'batch' when 'report' then 'report' end as result_kind, ${RESULT_ID}`;

function toListed(r: Row): ListedEntry {
  return { ...toEntry(r), result: r.result_id && r.result_kind ? { kind: r.result_kind, id: r.result_id } : null };
}

export async function listTransactions({
  db,
  orgId,
  limit,
}: {
  db: Db;
  orgId: string;
  limit: number;
}): Promise<ListedEntry[]> {
  const res = await db.execute<Row>(
    sql`select ${COLUMNS} from credit_ledger where org_id = ${orgId} order by seq desc limit ${limit}`,
  );
  return res.rows.map(toListed);
}

export interface UsageHistory {
  transactions: ListedEntry[];
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
}

export async function usageHistory({
  db,
  orgId,
  page,
  pageSize,
}: {
  db: Db;
  orgId: string;
  page: number;
  pageSize: number;
}): Promise<UsageHistory> {
  const offset = (page - 1) * pageSize;
  const [rows, count] = await Promise.all([
    db.execute<Row>(
      sql`select ${COLUMNS} from credit_ledger where org_id = ${orgId} order by seq desc limit ${pageSize} offset ${offset}`,
    ),
    db.execute<{ total: string | number }>(sql`select count(*) as total from credit_ledger where org_id = ${orgId}`),
  ]);
  const total = Number(count.rows[0]?.total ?? 0);
  return {
    transactions: rows.rows.map(toListed),
    page,
    page_size: pageSize,
    total,
    total_pages: Math.ceil(total / pageSize),
  };
}
