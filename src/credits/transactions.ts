// Ledger reads for one organisation, newest first.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { LEDGER_COLUMNS, toEntry, type LedgerEntry } from "./entry.ts";

type Row = Parameters<typeof toEntry>[0];

export async function listTransactions({
  db,
  orgId,
  limit,
}: {
  db: Db;
  orgId: string;
  limit: number;
}): Promise<LedgerEntry[]> {
  const res = await db.execute<Row>(
    sql`select ${LEDGER_COLUMNS} from credit_ledger where org_id = ${orgId} order by seq desc limit ${limit}`,
  );
  return res.rows.map(toEntry);
}

export interface UsageHistory {
  transactions: LedgerEntry[];
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
      sql`select ${LEDGER_COLUMNS} from credit_ledger where org_id = ${orgId} order by seq desc limit ${pageSize} offset ${offset}`,
    ),
    db.execute<{ total: string | number }>(sql`select count(*) as total from credit_ledger where org_id = ${orgId}`),
  ]);
  const total = Number(count.rows[0]?.total ?? 0);
  return {
    transactions: rows.rows.map(toEntry),
    page,
    page_size: pageSize,
    total,
    total_pages: Math.ceil(total / pageSize),
  };
}
