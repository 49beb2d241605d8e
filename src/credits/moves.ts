// The two writes every money statement is made of, written once as SQL fragments: the balance-guarded move of
// organisations.credit_balance and the credit_ledger entry. Each writer composes them as CTEs into its own single
// statement (one round trip), so no other file writes either table.
import { sql, type SQL } from "drizzle-orm";
import { LEDGER_COLUMNS } from "./entry.ts";

/** A value bound as a parameter, or an SQL expression over the rows the fragment reads from. */
export type Value = SQL | string | number | null;

export interface BalanceMove {
  /** The organisation whose balance moves. */
  orgId: Value;
  /** Credits added (negative to spend), an SQL numeric expression. */
  delta: SQL;
  /** Rows the move reads its inputs from (`update ... from`), e.g. an earlier CTE. */
  from?: SQL;
  /** More conditions the move needs (e.g. no entry under the key yet); unmet, nothing moves. */
  guard?: SQL;
  /** Columns of `organisations o` returned besides the new `credit_balance`. */
  returning?: SQL;
}

/**
 * The body of a CTE that moves an organisation's balance by `delta` only if it stays at or above zero,
 * returning the new `credit_balance`. Concurrent moves queue on the row lock and re-check the guard, so none overdraws.
 */
export function balanceMove({ orgId, delta, from, guard, returning }: BalanceMove): SQL {
  return sql`update organisations o set credit_balance = o.credit_balance + (${delta})${from ? sql` from ${from}` : sql``}
    where o.id = ${orgId} and o.credit_balance + (${delta}) >= 0${guard ? sql` and ${guard}` : sql``}
    returning o.credit_balance${returning ? sql`, ${returning}` : sql``}`;
}

export interface LedgerInsert {
  /** The rows the entry is made from (one entry per row), typically the balance move's CTE. */
  from: SQL;
  /** Omitted: the column's default (a random uuid). */
  id?: Value;
  orgId: Value;
  userId: Value;
  amount: Value;
  /** The balance once this entry is applied: the move's returned `credit_balance`. */
  balanceAfter: Value;
  type: Value;
  description: Value;
  expiresAt?: Value;
  relatedEntityId?: Value;
  actionType?: Value;
  idempotencyKey: Value;
}

/** The body of a CTE that appends one ledger entry per row of `from`, returning the entry's columns. */
export function ledgerEntry(e: LedgerInsert): SQL {
  const [idColumn, idValue] = e.id === undefined ? [sql``, sql``] : [sql`id, `, sql`${e.id}, `];
  return sql`insert into credit_ledger (${idColumn}org_id, user_id, amount, balance_after, type, description, expires_at, related_entity_id, action_type, idempotency_key)
    select ${idValue}${e.orgId}, ${e.userId}, ${e.amount}, ${e.balanceAfter}, ${e.type}, ${e.description},
           ${e.expiresAt ?? null}, ${e.relatedEntityId ?? null}, ${e.actionType ?? null}, ${e.idempotencyKey}
    from ${e.from}
    returning ${LEDGER_COLUMNS}`;
}
