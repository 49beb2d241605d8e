// The scheduled job: posts `expiry` entries for the unspent part of grants whose expires_at has passed.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { postEntry } from "./ledger.ts";
import { dueExpiries, type ReplayEntry } from "./allocation.ts";

export interface ExpiryReport {
  orgs: number;
  expired: number;
  /** Orgs whose ledger moved while we computed; the next run picks them up. */
  deferred: number;
}

export const expiryKey = (grantId: string): string => `expiry:${grantId}`;

interface LedgerRow extends Record<string, unknown> {
  id: string;
  seq: string | number;
  amount: string;
  type: string;
  expires_at: Date | string | null;
  created_at: Date | string;
  related_entity_id: string | null;
}

const ms = (v: Date | string | null): number | null => (v === null ? null : new Date(v).getTime());

/** How far back a refund that may have returned credits to an already-swept grant is looked for (hourly runs). */
const LATE_REFUND_DAYS = 30;

// Besides lapsed unswept grants: a refund whose debit came before an expiry entry may have returned
// credits to a grant swept in between; allocation.ts expires those under the refund's own id.
async function orgsWithLapsedGrants(db: Db, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const res = await db.execute<{ org_id: string }>(sql`
    select g.org_id from credit_ledger g
    where g.amount > 0 and g.expires_at is not null and g.expires_at <= ${at}::timestamptz
      and not exists (select 1 from credit_ledger e where e.org_id = g.org_id and e.idempotency_key = 'expiry:' || g.id::text)
    union
    select r.org_id from credit_ledger r
    where r.type = 'refund' and r.related_entity_id is not null
      and r.created_at > ${at}::timestamptz - make_interval(days => ${LATE_REFUND_DAYS})
      and exists (
        select 1 from credit_ledger d join credit_ledger x on x.org_id = d.org_id and x.type = 'expiry' and x.seq > d.seq
        where d.org_id = r.org_id and d.type = 'usage' and d.related_entity_id = r.related_entity_id and x.seq < r.seq)
      and not exists (select 1 from credit_ledger e where e.org_id = r.org_id and e.idempotency_key = 'expiry:' || r.id::text)`);
  return res.rows.map((r) => r.org_id);
}

async function ledgerOf(db: Db, orgId: string): Promise<ReplayEntry[]> {
  const res = await db.execute<LedgerRow>(sql`
    select id, seq, amount, type, expires_at, created_at, related_entity_id
    from credit_ledger where org_id = ${orgId} order by seq`);
  return res.rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    amount: String(r.amount),
    type: r.type,
    expiresAt: ms(r.expires_at),
    createdAt: ms(r.created_at) ?? 0,
    relatedEntityId: r.related_entity_id,
  }));
}

/** Expires lapsed grants of one organisation; each grant at most once (keyed by its id). */
export async function expireOrgGrants({
  db,
  orgId,
  now,
}: {
  db: Db;
  orgId: string;
  now: Date;
}): Promise<{ expired: number; deferred: boolean }> {
  const entries = await ledgerOf(db, orgId);
  const lastSeq = entries.at(-1)?.seq ?? 0;
  let expired = 0;
  for (const due of dueExpiries(entries, now.getTime())) {
    const res = await postEntry(db, {
      orgId,
      amount: -due.amount,
      type: "expiry",
      idempotencyKey: expiryKey(due.grantId),
      relatedEntityId: due.grantId,
      description: "Unspent credits of an expired grant",
      // A debit posted since we read the ledger may have consumed this grant: recompute next run.
      unchangedSince: lastSeq,
    });
    if (!res.ok) return { expired, deferred: true };
    if (!res.replayed) expired++;
  }
  return { expired, deferred: false };
}

/** Runs the sweep over every organisation with a lapsed, unswept grant. */
export async function expireGrants({ db, now = new Date() }: { db: Db; now?: Date }): Promise<ExpiryReport> {
  const report: ExpiryReport = { orgs: 0, expired: 0, deferred: 0 };
  for (const orgId of await orgsWithLapsedGrants(db, now)) {
    const r = await expireOrgGrants({ db, orgId, now });
    report.orgs++;
    report.expired += r.expired;
    if (r.deferred) report.deferred++;
  }
  return report;
}
