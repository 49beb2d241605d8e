// Charged jobs: the debit and its job row are one statement (open-job.ts); later the refund and the settled state another.
import { type SQL, sql } from "drizzle-orm";
import type { Db, Sql } from "../db/client.ts";
import { balanceOf, entryById, toEntry, type LedgerEntry, type LedgerRow } from "./entry.ts";
import { JOB_COLUMNS, JOB_COLUMNS_QUALIFIED, toJob, type Job, type JobRow } from "./job-row.ts";
import { balanceMove, ledgerEntry } from "./moves.ts";

export type { Job } from "./job-row.ts";
export { openJob, type OpenJobInput, type OpenJobResult } from "./open-job.ts";

export async function findJob(db: Sql, jobId: string, { lock = false } = {}): Promise<Job | undefined> {
  const res = await db.execute<JobRow>(
    lock
      ? sql`select ${JOB_COLUMNS} from charged_jobs where id = ${jobId} for update`
      : sql`select ${JOB_COLUMNS} from charged_jobs where id = ${jobId}`,
  );
  const row = res.rows[0];
  return row ? toJob(row) : undefined;
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
  /** True when the job was not due after all (its stream renewed the lease): nothing was written, it runs on. */
  stillRunning?: boolean;
}

/** The refund's own key: a retry or a second settler finds the entry instead of posting another. */
export const refundKey = (jobId: string): string => `refund:${jobId}`;

// The refund's wording per action, in SQL so the settlement stays one statement.
const NOUNS = sql.raw(
  "(values ('batch_score', 'site', 'sites'), ('report', 'report', 'reports'), ('chat', 'question', 'questions')) as n(action, one, many)",
);

export interface SettleInput {
  jobId: string;
  /** Omitted: the progress the job recorded. */
  unitsDone?: number;
  by: SettledBy;
  /** The sweep: only a job whose lease has run out by then is claimed. */
  dueBy?: Date;
  /** Why the units not delivered were not: the refund entry says so ("2 rows could not be scored"). */
  why?: string | undefined;
  /** The work's own record of what it delivered (a data-modifying statement), written in the same statement. */
  alongside?: SQL | undefined;
}

/**
 * Settles a charged job once, in one statement (one round trip): claims it (`status = 'charged'`, so of
 * concurrent settlers one wins and the others change nothing), refunds the units not delivered with the
 * entry's balance_after, and links the refund. A job settled before is read back in a second query.
 */
export async function settleJob(
  db: Db,
  { jobId, unitsDone, by, dueBy, alongside, why }: SettleInput,
): Promise<Settlement> {
  const due = dueBy === undefined ? null : dueBy.toISOString();
  const done = unitsDone === undefined ? null : Math.max(0, Math.floor(unitsDone));
  const refundId = crypto.randomUUID();
  // Runs whether or not this call claims the job: what was delivered is true either way.
  const also = alongside ? sql`alongside as (${alongside}),` : sql``;
  const res = await db.execute<{ job: JobRow; entry: LedgerRow | null; balance: string }>(sql`
    with ${also} claimed as (
      update charged_jobs j
      set status = 'settled', units_done = d.done, refunded = round((j.units - d.done) * j.unit_price, 4),
          refund_entry_id = case when j.units > d.done then ${refundId}::uuid end, settled_at = now(), settled_by = ${by}
      from (select least(units, coalesce(${done}::int, units_done)) as done from charged_jobs where id = ${jobId}) d
      where j.id = ${jobId} and j.status = 'charged' and (${due}::timestamptz is null or j.settle_after <= ${due}::timestamptz)
      returning ${sql.raw(JOB_COLUMNS_QUALIFIED)}
    ), moved as (
      ${balanceMove({ orgId: sql`c.org_id`, delta: sql`c.refunded`, from: sql`claimed c`, guard: sql`c.refunded > 0` })}
    ), entry as (
      ${ledgerEntry({
        from: sql`claimed c cross join moved m join ${NOUNS} on n.action = c.action`,
        id: sql`c.refund_entry_id`,
        orgId: sql`c.org_id`,
        userId: sql`c.user_id`,
        amount: sql`c.refunded`,
        balanceAfter: sql`m.credit_balance`,
        type: "refund",
        description: sql`case when ${why ?? null}::text is not null
                                then 'Refund for ' || (c.units - c.units_done) || ' ' || (case when c.units - c.units_done = 1 then n.one else n.many end) || ': ' || ${why ?? null}::text
                              when c.units_done = 0 then 'Refund: the ' || (case when c.units = 1 then n.one else n.many end) || ' could not be delivered'
                              else 'Refund for ' || (c.units - c.units_done) || ' ' || (case when c.units - c.units_done = 1 then n.one else n.many end)
                                   || ' not delivered' end`,
        relatedEntityId: sql`c.id::text`,
        actionType: sql`c.action`,
        idempotencyKey: sql`'refund:' || c.id`,
      })}
    )
    select to_jsonb(c) as job, (select to_jsonb(entry) from entry) as entry,
           coalesce((select balance_after from entry), (select credit_balance from organisations where id = c.org_id)) as balance
    from claimed c`);
  const row = res.rows[0];
  if (row) {
    const refund = row.entry ? toEntry(row.entry) : null;
    const job = toJob(row.job);
    return {
      job,
      refunded: job.refunded ?? 0,
      refund,
      balance: Number(row.balance),
      alreadySettled: false,
      stillRunning: false,
    };
  }
  const job = await findJob(db, jobId);
  if (!job) throw new Error(`charged job ${jobId} not found`);
  const stillRunning = job.status === "charged" && due !== null;
  if (job.status !== "settled" && !stillRunning) throw new Error(`charged job ${jobId} could not be settled`);
  const refund = job.refundEntryId ? await entryById(db, job.refundEntryId) : null;
  const balance = await balanceOf(db, job.orgId);
  return { job, refunded: job.refunded ?? 0, refund, balance, alreadySettled: !stillRunning, stillRunning };
}
