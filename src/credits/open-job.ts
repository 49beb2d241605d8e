// Opening a charged job: the debit and its job row in one statement, or, for a key used before, the rest of the work.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { balanceOf, toEntry, type ActionType, type LedgerEntry, type LedgerRow } from "./entry.ts";
import { JOB_COLUMNS, toJob, type Job, type JobRow } from "./job-row.ts";
import type { PostResult } from "./ledger.ts";
import { balanceMove, ledgerEntry } from "./moves.ts";
import { withRetries, type Attempt } from "./retry.ts";

export interface OpenJobInput {
  orgId: string;
  userId: string | null;
  action: ActionType;
  /** How many units the work has (rows, sites, questions); each costs `unitPrice`. */
  units: number;
  unitPrice: number;
  /** The debit's key: a retry with the same key continues the jobs opened under it (see openJob). */
  idempotencyKey: string;
  description: string;
  /** How long the work may run before the sweep settles it as abandoned. */
  timeoutMs: number;
  now?: Date;
}

export type OpenJobResult =
  | {
      ok: true;
      /** The job this call charged, or (replayed) the key's last job when there was nothing to charge. */
      job: Job;
      debit: LedgerEntry;
      /** Nothing was charged: the key's last job is still running, or every unit was paid and delivered. */
      replayed: boolean;
      /** The paying organisation's name, read by the same statement (a report prints it). */
      orgName: string;
      /** The balance once this call committed (after its debit, or as it is now for a replay). */
      balance: number;
      /** The key's first job: the id of the work as a whole (a batch's id). */
      firstJobId: string;
      /** Units earlier requests under the key paid for and took: in order, the first ones; served again free. */
      paidUnits: number;
    }
  | Exclude<PostResult, { ok: true }>;

// The deepest chain of retries followed; each link is one index lookup.
const MAX_CHAIN = 1000;

/**
 * Charges for a piece of work and records it as a job in one statement (one round trip). A key used before
 * names a chain of jobs (`<key>`, `<key>:after:<job id>`, ...), each charging what the ones before left
 * unpaid. The statement follows the chain to its last job: still charged (running) or paid in full, it is
 * returned as a replay and nothing is charged; settled with units not delivered, a new job is opened for
 * exactly those (`<key>:after:<that job>`, so concurrent retries share one). Units are delivered in order,
 * so the paid ones are the first `paidUnits`.
 */
export async function openJob(db: Db, input: OpenJobInput): Promise<OpenJobResult> {
  return withRetries<OpenJobResult>(
    () => openOnce(db, input),
    // A concurrent twin opened the same link first (a unique violation): run again, and the chain now ends in theirs.
    async () => undefined,
  );
}

type OpenRow = {
  outcome: string;
  entry: LedgerRow | null;
  job: JobRow | null;
  org_name: string | null;
  balance: string | null;
  first_units: number | null;
  first_id: string | null;
  required: string | null;
};

async function openOnce(db: Db, input: OpenJobInput): Promise<Attempt<OpenJobResult>> {
  const jobId = crypto.randomUUID();
  const settleAfter = new Date((input.now ?? new Date()).getTime() + input.timeoutMs);
  const { orgId, userId, idempotencyKey: key } = input;
  const member = sql`(${userId}::uuid is null or exists (
    select 1 from memberships where org_id = ${orgId} and user_id = ${userId}::uuid))`;
  const res = await db.execute<OpenRow>(sql`
    with recursive chain as (
      select l.idempotency_key as key, j.id, j.units, j.units_done, j.status, 1 as depth
      from credit_ledger l join charged_jobs j on j.debit_entry_id = l.id
      where l.org_id = ${orgId} and l.idempotency_key = ${key}
      union all
      select l.idempotency_key, j.id, j.units, j.units_done, j.status, c.depth + 1
      from chain c
      join credit_ledger l on l.org_id = ${orgId} and l.idempotency_key = c.key || ':after:' || c.id::text
      join charged_jobs j on j.debit_entry_id = l.id
      where c.depth < ${MAX_CHAIN}
    ), tail as (
      select * from chain order by depth desc limit 1
    ), todo as (
      select p.units, p.key, round(p.units * ${input.unitPrice}::numeric, 4) as amount,
             coalesce((select units from chain where depth = 1), ${input.units}::int) as first_units,
             coalesce((select id from chain where depth = 1), ${jobId}::uuid) as first_id
      from (
        select case when t.id is null then ${input.units}::int when t.status = 'settled' then t.units - t.units_done else 0 end as units,
               case when t.id is null then ${key} else t.key || ':after:' || t.id::text end as key
        from (select 1) one left join tail t on true
      ) p
    ), moved as (
      ${balanceMove({ orgId, delta: sql`-d.amount`, from: sql`todo d`, guard: sql`d.units > 0 and ${member}`, returning: sql`o.name` })}
    ), entry as (
      ${ledgerEntry({
        from: sql`moved m cross join todo d`,
        orgId,
        userId,
        amount: sql`-d.amount`,
        balanceAfter: sql`m.credit_balance`,
        type: "usage",
        description: sql`case when d.key = ${key} then ${input.description}
                              else ${input.description} || ' (retry: ' || d.units || ' not yet paid)' end`,
        relatedEntityId: jobId,
        actionType: input.action,
        idempotencyKey: sql`d.key`,
      })}
    ), job as (
      insert into charged_jobs (id, org_id, user_id, action, units, unit_price, charged, debit_entry_id, settle_after)
      select ${jobId}, ${orgId}, ${userId}, ${input.action}, d.units, ${input.unitPrice}, d.amount,
             e.id, ${settleAfter.toISOString()}::timestamptz
      from entry e cross join todo d
      returning ${JOB_COLUMNS}
    )
    select 'posted' as outcome, (select to_jsonb(entry) from entry) as entry, (select to_jsonb(job) from job) as job,
           m.name as org_name, m.credit_balance as balance, d.first_units, d.first_id, null::numeric as required
    from moved m cross join todo d
    where exists (select 1 from job)
    union all
    select 'replayed', to_jsonb(l), to_jsonb(j), o.name, o.credit_balance, d.first_units, d.first_id, null
    from tail t join charged_jobs j on j.id = t.id join credit_ledger l on l.id = j.debit_entry_id
      join organisations o on o.id = j.org_id cross join todo d
    where d.units = 0
    union all
    select case when not exists (select 1 from organisations where id = ${orgId}) or not ${member} then 'no_org'
                else 'refused' end,
           null, null, null, null, null, null, d.amount
    from todo d
    where d.units > 0 and not exists (select 1 from job)`);
  const row = res.rows[0];
  if (row?.entry && row.job && (row.outcome === "posted" || row.outcome === "replayed")) {
    const job = toJob(row.job);
    const replayed = row.outcome === "replayed";
    const firstUnits = Number(row.first_units ?? job.units);
    return {
      done: {
        ok: true,
        job,
        debit: toEntry(row.entry),
        replayed,
        orgName: row.org_name ?? "",
        balance: Number(row.balance),
        firstJobId: row.first_id ?? job.id,
        // A running job's progress is not paid yet: it may still be refunded.
        paidUnits: firstUnits - job.units + (replayed && job.status === "settled" ? job.unitsDone : 0),
      },
    };
  }
  if (row?.outcome === "no_org") return { done: { ok: false, reason: "org_not_found" } };
  const required = Number(row?.required ?? Number.NaN);
  // Refused, a rare path: the statement's snapshot may predate a concurrent commit, so read the balance as it is now.
  const available = await balanceOf(db, orgId);
  const refusal: OpenJobResult = { ok: false, reason: "insufficient_credits", required, available };
  return available >= required ? { again: true, otherwise: refusal } : { done: refusal };
}
