// A ledger entry: its kinds, its row as stored and as the API shows it, and reading one back by key or id.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import type { ActionType } from "../routes/schemas/billing.ts";

export type LedgerType =
  | "signup_bonus"
  | "subscription_grant"
  | "purchase"
  | "usage"
  | "refund"
  | "expiry"
  | "adjustment";
export type { ActionType };

export interface LedgerEntry {
  id: string;
  org_id: string;
  user_id: string | null;
  amount: number;
  balance_after: number;
  type: LedgerType;
  description: string | null;
  expires_at: string | null;
  related_entity_id: string | null;
  action_type: ActionType | null;
  created_at: string;
}

export interface LedgerRow extends Record<string, unknown> {
  id: string;
  org_id: string;
  user_id: string | null;
  amount: string;
  balance_after: string;
  type: LedgerType;
  description: string | null;
  expires_at: Date | string | null;
  related_entity_id: string | null;
  action_type: ActionType | null;
  created_at: Date | string;
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

export function toEntry(r: LedgerRow): LedgerEntry {
  return {
    id: r.id,
    org_id: r.org_id,
    user_id: r.user_id,
    amount: Number(r.amount),
    balance_after: Number(r.balance_after),
    type: r.type,
    description: r.description,
    expires_at: iso(r.expires_at),
    related_entity_id: r.related_entity_id,
    action_type: r.action_type,
    created_at: iso(r.created_at) ?? "",
  };
}

/** Amount as an exact decimal string; refuses more precision than the column keeps. */
export function creditsText(amount: number): string {
  const scaled = Math.round(amount * 10000);
  if (!Number.isFinite(amount) || Math.abs(amount * 10000 - scaled) > 1e-6)
    throw new RangeError(`credit amount ${amount} has more than 4 decimal places`);
  const sign = scaled < 0 ? "-" : "";
  const abs = Math.abs(scaled);
  return `${sign}${Math.floor(abs / 10000)}.${String(abs % 10000).padStart(4, "0")}`;
}

export const LEDGER_COLUMNS = sql.raw(
  "id, org_id, user_id, amount, balance_after, type, description, expires_at, related_entity_id, action_type, created_at",
);

/** The entry posted under `key` for the organisation, if any. */
export async function findByKey(db: Sql, orgId: string, key: string): Promise<LedgerEntry | undefined> {
  const res = await db.execute<LedgerRow>(
    sql`select ${LEDGER_COLUMNS} from credit_ledger where org_id = ${orgId} and idempotency_key = ${key}`,
  );
  const row = res.rows[0];
  return row ? toEntry(row) : undefined;
}

export async function entryById(db: Sql, id: string): Promise<LedgerEntry | null> {
  const res = await db.execute<LedgerRow>(sql`select ${LEDGER_COLUMNS} from credit_ledger where id = ${id}`);
  const row = res.rows[0];
  return row ? toEntry(row) : null;
}

/** The organisation's cached balance; NaN when there is no such organisation. */
export async function balanceOf(db: Sql, orgId: string): Promise<number> {
  const res = await db.execute<{ credit_balance: string }>(
    sql`select credit_balance from organisations where id = ${orgId}`,
  );
  return Number(res.rows[0]?.credit_balance ?? Number.NaN);
}
