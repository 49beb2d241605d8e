// Charged jobs: a debit and its job row in one transaction; later the refund and the settled state in another.
import { sql } from "drizzle-orm";
import type { Db, Sql } from "../db/client.ts";
import {
  LEDGER_COLUMNS,
  creditsText,
  findByKey,
  toEntry,
  type ActionType,
  type LedgerEntry,
  type LedgerRow,
  type PostResult,
} from "../billing/ledger.ts";
import { costOf } from "../billing/prices.ts";

export interface Job {
  id: string;
  orgId: string;
  userId: string | null;
  action: ActionType;
  status: "charged" | "settled";
  units: number;
  unitPrice: number;
  charged: number;
  unitsDone: number;
  refunded: number | null;
  debitEntryId: string;
  refundEntryId: string | null;
  settleAfter: string;
  settledBy: string | null;
}

export interface OpenJobInput {
  orgId: string;
  userId: string | null;
  action: ActionType;
  /** How many units the work has (rows, sites, questions); each costs `unitPrice`. */
  units: number;
  unitPrice: number;
  /** The debit's key: a retry with the same key returns the job it opened first. */
  idempotencyKey: string;
  description: string;
  /** How long the work may run before the sweep settles it as abandoned. */
  timeoutMs: number;
  now?: Date;
}

export type OpenJobResult =
  | {
      ok: true;
      job: Job;
      debit: LedgerEntry;
      replayed: boolean;
      /** The paying organisation's name, read by the same statement (a report prints it). */
      orgName: string;
    }
  | Exclude<PostResult, { ok: true }>;

interface JobRow extends Record<string, unknown> {
  id: string;
  org_id: string;
  user_id: string | null;
  action: ActionType;
  status: "charged" | "settled";
  units: number;
  unit_price: string;
  charged: string;
  units_done: number;
  refunded: string | null;
  debit_entry_id: string;
  refund_entry_id: string | null;
  settle_after: Date | string;
  settled_by: string | null;
}

const JOB_FIELDS = [
  "id",
  "org_id",
  "user_id",
  "action",
  "status",
  "units",
  "unit_price",
  "charged",
  "units_done",
  "refunded",
  "debit_entry_id",
  "refund_entry_id",
  "settle_after",
  "settled_by",
];
const JOB_COLUMNS = sql.raw(JOB_FIELDS.join(", "));
// An UPDATE ... FROM names the updated table's columns through its alias.
const JOB_COLUMNS_QUALIFIED = JOB_FIELDS.map((f) => `j.${f}`).join(", ");

function toJob(r: JobRow): Job {
  return {
    id: r.id,
    orgId: r.org_id,
    userId: r.user_id,
    action: r.action,
    status: r.status,
    units: Number(r.units),
    unitPrice: Number(r.unit_price),
    charged: Number(r.charged),
    unitsDone: Number(r.units_done),
    refunded: r.refunded === null ? null : Number(r.refunded),
    debitEntryId: r.debit_entry_id,
    refundEntryId: r.refund_entry_id,
    settleAfter: new Date(r.settle_after).toISOString(),
    settledBy: r.settled_by,
  };
}

export async function findJob(db: Sql, jobId: string, { lock = false } = {}): Promise<Job | undefined> {
  const res = await db.execute<JobRow>(
    lock
      ? sql`select ${JOB_COLUMNS} from charged_jobs where id = ${jobId} for update`
      : sql`select ${JOB_COLUMNS} from charged_jobs where id = ${jobId}`,
  );
  const row = res.rows[0];
  return row ? toJob(row) : undefined;
}

/**
 * Charges for a piece of work and records it as a job in one transaction: either both exist or neither.
 * A key that was used before returns the original job and debit (`replayed`), charging nothing; but a
 * job refunded in full delivered nothing, so a retry under its key is new work, charged under a key
 * derived from that job (concurrent retries still share one).
 */
export async function openJob(db: Db, input: OpenJobInput): Promise<OpenJobResult> {
  const opened = await openOnce(db, input);
  if (opened.ok && opened.replayed && opened.job.status === "settled" && opened.job.unitsDone === 0) {
    return openJob(db, { ...input, idempotencyKey: `${input.idempotencyKey}:after:${opened.job.id}` });
  }
  return opened;
}

const MAX_ATTEMPTS = 3;

/**
 * One statement (one round trip, its own implicit transaction): a key already used returns its debit and
 * job; otherwise the balance guard, the `usage` entry with its balance_after and the job row are written
 * together or not at all. The payer must still be a member (the caller's membership may come from a cache).
 */
async function openOnce(db: Db, input: OpenJobInput, attempt = 1): Promise<OpenJobResult> {
  const amount = costOf(input.units, input.unitPrice);
  const debit = creditsText(-amount);
  const jobId = crypto.randomUUID();
  const settleAfter = new Date((input.now ?? new Date()).getTime() + input.timeoutMs);
  try {
    const res = await db.execute<{
      outcome: string;
      entry: LedgerRow | null;
      job: JobRow | null;
      org_name: string | null;
    }>(sql`
      with prior as (
        select id from credit_ledger where org_id = ${input.orgId} and idempotency_key = ${input.idempotencyKey}
      ), moved as (
        update organisations set credit_balance = credit_balance + ${debit}::numeric
        where id = ${input.orgId} and credit_balance + ${debit}::numeric >= 0 and not exists (select 1 from prior)
          and (${input.userId}::uuid is null or exists (
            select 1 from memberships where org_id = ${input.orgId} and user_id = ${input.userId}::uuid))
        returning credit_balance, name
      ), entry as (
        insert into credit_ledger (org_id, user_id, amount, balance_after, type, description, related_entity_id, action_type, idempotency_key)
        select ${input.orgId}, ${input.userId}, ${debit}::numeric, moved.credit_balance, 'usage', ${input.description}, ${jobId},
               ${input.action}, ${input.idempotencyKey}
        from moved
        returning ${LEDGER_COLUMNS}
      ), job as (
        insert into charged_jobs (id, org_id, user_id, action, units, unit_price, charged, debit_entry_id, settle_after)
        select ${jobId}, ${input.orgId}, ${input.userId}, ${input.action}, ${input.units}, ${input.unitPrice}, ${amount},
               entry.id, ${settleAfter.toISOString()}::timestamptz
        from entry
        returning ${JOB_COLUMNS}
      )
      select 'posted' as outcome, (select to_jsonb(entry) from entry) as entry, (select to_jsonb(job) from job) as job,
             (select name from moved) as org_name
      where exists (select 1 from job)
      union all
      select 'replayed', to_jsonb(l), to_jsonb(j), (select name from organisations where id = ${input.orgId})
      from credit_ledger l join charged_jobs j on j.debit_entry_id = l.id
      where l.id in (select id from prior)
      union all
      select case when not exists (select 1 from organisations where id = ${input.orgId}) then 'no_org'
                  when ${input.userId}::uuid is not null and not exists (
                    select 1 from memberships where org_id = ${input.orgId} and user_id = ${input.userId}::uuid) then 'no_org'
                  else 'refused' end,
             null, null, null
      where not exists (select 1 from job) and not exists (select 1 from prior)`);
    const row = res.rows[0];
    if (row?.entry && row.job && (row.outcome === "posted" || row.outcome === "replayed"))
      return {
        ok: true,
        job: toJob(row.job),
        debit: toEntry(row.entry),
        replayed: row.outcome === "replayed",
        orgName: row.org_name ?? "",
      };
    if (row?.outcome === "no_org") return { ok: false, reason: "org_not_found" };
    // Refused, a rare path: the statement's snapshot may predate a concurrent commit, so read the balance as it is now.
    const available = await balanceOf(db, input.orgId);
    if (available >= amount && attempt < MAX_ATTEMPTS) return openOnce(db, input, attempt + 1);
    return { ok: false, reason: "insufficient_credits", required: amount, available };
  } catch (err) {
    // A concurrent twin with the same key committed first (a unique violation): theirs stands.
    const prior = await findByKey(db, input.orgId, input.idempotencyKey);
    if (!prior) throw err;
    return replay(db, prior);
  }
}

async function replay(db: Sql, debit: LedgerEntry): Promise<OpenJobResult> {
  const res = await db.execute<JobRow & { org_name: string }>(
    sql`select ${sql.raw(JOB_COLUMNS_QUALIFIED)}, o.name as org_name
        from charged_jobs j join organisations o on o.id = j.org_id where j.debit_entry_id = ${debit.id}`,
  );
  const row = res.rows[0];
  if (!row) throw new Error(`debit ${debit.id} has no charged job`);
  return { ok: true, job: toJob(row), debit, replayed: true, orgName: row.org_name };
}

export type SettledBy = "request" | "sweep";

export interface Settlement {
  job: Job;
  /** Credits given back for the units not done (0 when all were done). */
  refunded: number;
  refund: LedgerEntry | null;
  /** The organisation's balance once the settlement is committed. */
  balance: number;
  /** True when another settler had already settled the job: nothing was written this time. */
  alreadySettled: boolean;
}

/** The refund's own key: a retry or a second settler finds the entry instead of posting another. */
export const refundKey = (jobId: string): string => `refund:${jobId}`;

async function balanceOf(db: Sql, orgId: string): Promise<number> {
  const res = await db.execute<{ credit_balance: string }>(
    sql`select credit_balance from organisations where id = ${orgId}`,
  );
  return Number(res.rows[0]?.credit_balance ?? Number.NaN);
}

// The refund's wording per action, in SQL so the settlement stays one statement.
const NOUNS = sql.raw(
  "(values ('batch_score', 'site', 'sites'), ('report', 'report', 'reports'), ('chat', 'question', 'questions')) as n(action, one, many)",
);

/**
 * Settles a charged job once, in one statement (one round trip): claims it (`status = 'charged'`, so of
 * concurrent settlers one wins and the others change nothing), refunds the units not delivered with the
 * entry's balance_after, and links the refund. A job settled before is read back in a second query.
 */
export async function settleJob(
  db: Db,
  {
    jobId,
    unitsDone,
    by,
  }: { jobId: string /** Omitted: the progress the job recorded. */; unitsDone?: number; by: SettledBy },
): Promise<Settlement> {
  const done = unitsDone === undefined ? null : Math.max(0, Math.floor(unitsDone));
  const refundId = crypto.randomUUID();
  const res = await db.execute<{ job: JobRow; entry: LedgerRow | null; balance: string }>(sql`
    with claimed as (
      update charged_jobs j
      set status = 'settled', units_done = d.done, refunded = round((j.units - d.done) * j.unit_price, 4),
          refund_entry_id = case when j.units > d.done then ${refundId}::uuid end, settled_at = now(), settled_by = ${by}
      from (select least(units, coalesce(${done}::int, units_done)) as done from charged_jobs where id = ${jobId}) d
      where j.id = ${jobId} and j.status = 'charged'
      returning ${sql.raw(JOB_COLUMNS_QUALIFIED)}
    ), moved as (
      update organisations o set credit_balance = o.credit_balance + c.refunded
      from claimed c where o.id = c.org_id and c.refunded > 0
      returning o.credit_balance
    ), entry as (
      insert into credit_ledger (id, org_id, user_id, amount, balance_after, type, description, related_entity_id, action_type, idempotency_key)
      select c.refund_entry_id, c.org_id, c.user_id, c.refunded, m.credit_balance, 'refund',
             case when c.units_done = 0 then 'Refund: the ' || (case when c.units = 1 then n.one else n.many end) || ' could not be delivered'
                  else 'Refund for ' || (c.units - c.units_done) || ' ' || (case when c.units - c.units_done = 1 then n.one else n.many end)
                       || ' not delivered' end,
             c.id::text, c.action, 'refund:' || c.id
      from claimed c cross join moved m join ${NOUNS} on n.action = c.action
      returning ${LEDGER_COLUMNS}
    )
    select to_jsonb(c) as job, (select to_jsonb(entry) from entry) as entry,
           coalesce((select balance_after from entry), (select credit_balance from organisations where id = c.org_id)) as balance
    from claimed c`);
  const row = res.rows[0];
  if (row) {
    const refund = row.entry ? toEntry(row.entry) : null;
    const job = toJob(row.job);
    return { job, refunded: job.refunded ?? 0, refund, balance: Number(row.balance), alreadySettled: false };
  }
  const job = await findJob(db, jobId);
  if (!job) throw new Error(`charged job ${jobId} not found`);
  if (job.status !== "settled") throw new Error(`charged job ${jobId} could not be settled`);
  const refund = job.refundEntryId ? await entryById(db, job.refundEntryId) : null;
  return { job, refunded: job.refunded ?? 0, refund, balance: await balanceOf(db, job.orgId), alreadySettled: true };
}

async function entryById(db: Sql, id: string): Promise<LedgerEntry | null> {
  const res = await db.execute<LedgerRow>(sql`select ${LEDGER_COLUMNS} from credit_ledger where id = ${id}`);
  const row = res.rows[0];
  return row ? toEntry(row) : null;
}
