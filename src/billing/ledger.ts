// The credit ledger: append-only entries, each moving the cached balance in the same statement.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";

export type LedgerType =
  | "signup_bonus"
  | "subscription_grant"
  | "purchase"
  | "usage"
  | "refund"
  | "expiry"
  | "adjustment";
export type ActionType = "batch_score" | "report" | "chat";

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

export interface PostEntryInput {
  orgId: string;
  userId?: string | null;
  /** Positive for credits in, negative for debits; at most 4 decimal places. */
  amount: number;
  type: LedgerType;
  idempotencyKey: string;
  description?: string | null;
  expiresAt?: Date | null;
  relatedEntityId?: string | null;
  actionType?: ActionType | null;
  /**
   * Optional guard: post only if the organisation has no entries other than `expiry` ones after this
   * ledger seq (the expiry job computed its amount from the ledger up to there); otherwise `stale`.
   */
  unchangedSince?: number | null;
}

export type PostResult =
  | { ok: true; entry: LedgerEntry; replayed: boolean }
  | { ok: false; reason: "insufficient_credits"; required: number; available: number }
  | { ok: false; reason: "org_not_found" }
  | { ok: false; reason: "stale" };

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

const MAX_ATTEMPTS = 3;

async function currentBalance(db: Sql, orgId: string): Promise<number> {
  const res = await db.execute<{ credit_balance: string }>(
    sql`select credit_balance from organisations where id = ${orgId}`,
  );
  return Number(res.rows[0]?.credit_balance ?? 0);
}

/**
 * Posts one entry atomically: a single statement guards the balance (no read-then-write), moves the
 * cached balance and appends the entry, so concurrent debits can never overdraw and a retried key posts once.
 */
export async function postEntry(db: Sql, input: PostEntryInput, attempt = 1): Promise<PostResult> {
  const amount = creditsText(input.amount);
  const replay = await findByKey(db, input.orgId, input.idempotencyKey);
  if (replay) return { ok: true, entry: replay, replayed: true };
  try {
    const guard = input.unchangedSince ?? null;
    const res = await db.execute<LedgerRow & { outcome: string; available: string | null }>(sql`
      with org as (
        select id, credit_balance from organisations where id = ${input.orgId}
      ), changed as (
        select ${guard}::bigint is not null and exists (
          select 1 from credit_ledger where org_id = ${input.orgId} and seq > ${guard}::bigint and type <> 'expiry'
        ) as stale
      ), moved as (
        update organisations set credit_balance = credit_balance + ${amount}::numeric
        where id = ${input.orgId} and credit_balance + ${amount}::numeric >= 0
          and not exists (select 1 from credit_ledger where org_id = ${input.orgId} and idempotency_key = ${input.idempotencyKey})
          and not (select stale from changed)
        returning credit_balance
      ), entry as (
        insert into credit_ledger (org_id, user_id, amount, balance_after, type, description, expires_at, related_entity_id, action_type, idempotency_key)
        select ${input.orgId}, ${input.userId ?? null}, ${amount}::numeric, moved.credit_balance, ${input.type}, ${input.description ?? null},
               ${input.expiresAt ? input.expiresAt.toISOString() : null}::timestamptz, ${input.relatedEntityId ?? null}, ${input.actionType ?? null}, ${input.idempotencyKey}
        from moved
        returning ${LEDGER_COLUMNS}
      )
      select 'posted' as outcome, null::numeric as available, entry.* from entry
      union all
      select case when not exists (select 1 from org) then 'no_org' when (select stale from changed) then 'stale' else 'refused' end,
             (select credit_balance from org),
             null, null, null, null, null, null, null, null, null, null, null
      where not exists (select 1 from entry)
    `);
    const row = res.rows[0];
    if (row?.outcome === "posted") return { ok: true, entry: toEntry(row), replayed: false };
    if (row?.outcome === "no_org") return { ok: false, reason: "org_not_found" };
    if (row?.outcome === "stale") return { ok: false, reason: "stale" };
    // Refused: either the balance is short or a concurrent twin with the same key won the race.
    const twin = await findByKey(db, input.orgId, input.idempotencyKey);
    if (twin) return { ok: true, entry: twin, replayed: true };
    // The statement's snapshot may predate concurrent commits: report (or retry on) the balance as it is now.
    const available = await currentBalance(db, input.orgId);
    if (available + input.amount >= 0 && attempt < MAX_ATTEMPTS) return postEntry(db, input, attempt + 1);
    return { ok: false, reason: "insufficient_credits", required: -input.amount, available };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const twin = await findByKey(db, input.orgId, input.idempotencyKey);
    if (twin) return { ok: true, entry: twin, replayed: true };
    throw err;
  }
}

export interface DebitInput {
  db: Sql;
  orgId: string;
  userId?: string | null;
  /** What the operation costs: a positive number of credits. */
  amount: number;
  idempotencyKey: string;
  actionType?: ActionType | null;
  relatedEntityId?: string | null;
  description?: string | null;
}

/** Spends credits (a `usage` entry); refused without writing when the balance does not cover it. */
export function debit({ db, amount, ...rest }: DebitInput): Promise<PostResult> {
  if (!(amount > 0)) throw new RangeError(`debit amount must be positive, got ${amount}`);
  return postEntry(db, { ...rest, amount: -amount, type: "usage" });
}

export type GrantType = "signup_bonus" | "subscription_grant" | "purchase" | "refund" | "adjustment";

export interface GrantInput {
  db: Sql;
  orgId: string;
  userId?: string | null;
  /** Credits added: a positive number. */
  amount: number;
  type: GrantType;
  idempotencyKey: string;
  /** Unspent credits of this grant are expired by the scheduled job after this instant. */
  expiresAt?: Date | null;
  relatedEntityId?: string | null;
  description?: string | null;
}

/** Adds credits, optionally expiring ones. */
export function grant({ db, amount, ...rest }: GrantInput): Promise<PostResult> {
  if (!(amount > 0)) throw new RangeError(`grant amount must be positive, got ${amount}`);
  return postEntry(db, { ...rest, amount });
}
