// Posting one ledger entry on its own (grants, purchases, expiry): the entry and the balance move in one statement.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import {
  balanceOf,
  creditsText,
  findByKey,
  toEntry,
  type ActionType,
  type LedgerEntry,
  type LedgerRow,
  type LedgerType,
} from "./entry.ts";
import { balanceMove, ledgerEntry } from "./moves.ts";
import { withRetries } from "./retry.ts";

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

/** The single statement: guards the balance (no read-then-write), moves it and appends the entry. */
function postStatement(input: PostEntryInput, amount: string) {
  const guard = input.unchangedSince ?? null;
  const { orgId, idempotencyKey: key } = input;
  return sql`
    with org as (
      select id, credit_balance from organisations where id = ${orgId}
    ), changed as (
      select ${guard}::bigint is not null and exists (
        select 1 from credit_ledger where org_id = ${orgId} and seq > ${guard}::bigint and type <> 'expiry'
      ) as stale
    ), moved as (
      ${balanceMove({
        orgId,
        delta: sql`${amount}::numeric`,
        guard: sql`not exists (select 1 from credit_ledger where org_id = ${orgId} and idempotency_key = ${key})
          and not (select stale from changed)`,
      })}
    ), entry as (
      ${ledgerEntry({
        from: sql`moved`,
        orgId,
        userId: input.userId ?? null,
        amount: sql`${amount}::numeric`,
        balanceAfter: sql`moved.credit_balance`,
        type: input.type,
        description: input.description ?? null,
        expiresAt: sql`${input.expiresAt ? input.expiresAt.toISOString() : null}::timestamptz`,
        relatedEntityId: input.relatedEntityId ?? null,
        actionType: input.actionType ?? null,
        idempotencyKey: key,
      })}
    )
    select 'posted' as outcome, null::numeric as available, entry.* from entry
    union all
    select case when not exists (select 1 from org) then 'no_org' when (select stale from changed) then 'stale' else 'refused' end,
           (select credit_balance from org),
           null, null, null, null, null, null, null, null, null, null, null
    where not exists (select 1 from entry)
  `;
}

/**
 * Posts one entry atomically, so concurrent debits can never overdraw and a retried key posts once.
 * A refusal is re-checked against the balance as it is now (the snapshot may predate a concurrent commit).
 */
export async function postEntry(db: Sql, input: PostEntryInput): Promise<PostResult> {
  const amount = creditsText(input.amount);
  const twin = async (): Promise<PostResult | undefined> => {
    const entry = await findByKey(db, input.orgId, input.idempotencyKey);
    return entry ? { ok: true, entry, replayed: true } : undefined;
  };
  return withRetries<PostResult>(
    async () => {
      const replay = await twin();
      if (replay) return { done: replay };
      const res = await db.execute<LedgerRow & { outcome: string; available: string | null }>(
        postStatement(input, amount),
      );
      const row = res.rows[0];
      if (row?.outcome === "posted") return { done: { ok: true, entry: toEntry(row), replayed: false } };
      if (row?.outcome === "no_org") return { done: { ok: false, reason: "org_not_found" } };
      if (row?.outcome === "stale") return { done: { ok: false, reason: "stale" } };
      // Refused: either the balance is short or a concurrent twin with the same key won the race.
      const won = await twin();
      if (won) return { done: won };
      const now = await balanceOf(db, input.orgId);
      const available = Number.isNaN(now) ? 0 : now;
      const refusal: PostResult = { ok: false, reason: "insufficient_credits", required: -input.amount, available };
      return available + input.amount >= 0 ? { again: true, otherwise: refusal } : { done: refusal };
    },
    async (err) => {
      // A unique violation is a twin under the same key: answer with its entry, never run again.
      const won = await twin();
      if (won) return won;
      throw err;
    },
  );
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
