// Charged jobs: a debit and its job row in one transaction; later the refund and the settled state in another.
import { sql } from "drizzle-orm";
import type { Db, Sql } from "../db/client.ts";
import {
  LEDGER_COLUMNS,
  findByKey,
  postEntry,
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
  | { ok: true; job: Job; debit: LedgerEntry; replayed: boolean }
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

const JOB_COLUMNS = sql.raw(
  "id, org_id, user_id, action, status, units, unit_price, charged, units_done, refunded, debit_entry_id, refund_entry_id, settle_after, settled_by",
);

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

async function jobOfDebit(db: Sql, debitEntryId: string): Promise<Job | undefined> {
  const res = await db.execute<JobRow>(
    sql`select ${JOB_COLUMNS} from charged_jobs where debit_entry_id = ${debitEntryId}`,
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

async function openOnce(db: Db, input: OpenJobInput): Promise<OpenJobResult> {
  const amount = costOf(input.units, input.unitPrice);
  const jobId = crypto.randomUUID();
  const settleAfter = new Date((input.now ?? new Date()).getTime() + input.timeoutMs);
  try {
    return await db.transaction(async (tx) => {
      const posted = await postEntry(tx, {
        orgId: input.orgId,
        userId: input.userId,
        amount: -amount,
        type: "usage",
        idempotencyKey: input.idempotencyKey,
        actionType: input.action,
        relatedEntityId: jobId,
        description: input.description,
      });
      if (!posted.ok) return posted;
      if (posted.replayed) return replay(tx, posted.entry);
      const res = await tx.execute<JobRow>(sql`
        insert into charged_jobs (id, org_id, user_id, action, units, unit_price, charged, debit_entry_id, settle_after)
        values (${jobId}, ${input.orgId}, ${input.userId}, ${input.action}, ${input.units}, ${input.unitPrice}, ${amount},
                ${posted.entry.id}, ${settleAfter.toISOString()}::timestamptz)
        returning ${JOB_COLUMNS}`);
      const row = res.rows[0];
      if (!row) throw new Error("charged job insert returned no row");
      return { ok: true as const, job: toJob(row), debit: posted.entry, replayed: false };
    });
  } catch (err) {
    // A concurrent twin with the same key committed first (a unique violation, then an aborted
    // transaction): this one rolled back and theirs stands. Anything else left no debit behind.
    const debit = await findByKey(db, input.orgId, input.idempotencyKey);
    if (!debit) throw err;
    return replay(db, debit);
  }
}

async function replay(db: Sql, debit: LedgerEntry): Promise<OpenJobResult> {
  const job = await jobOfDebit(db, debit.id);
  if (!job) throw new Error(`debit ${debit.id} has no charged job`);
  return { ok: true, job, debit, replayed: true };
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

/**
 * Settles a charged job once: refunds the units not done and marks it settled in one transaction. The
 * row lock makes concurrent settlers queue; whoever comes second sees it settled and writes nothing.
 */
export async function settleJob(
  db: Db,
  {
    jobId,
    unitsDone,
    by,
  }: { jobId: string /** Omitted: the progress the job recorded. */; unitsDone?: number; by: SettledBy },
): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const job = await findJob(tx, jobId, { lock: true });
    if (!job) throw new Error(`charged job ${jobId} not found`);
    if (job.status === "settled") {
      const refund = job.refundEntryId ? await entryById(tx, job.refundEntryId) : null;
      return {
        job,
        refunded: job.refunded ?? 0,
        refund,
        balance: await balanceOf(tx, job.orgId),
        alreadySettled: true,
      };
    }
    const done = Math.max(0, Math.min(job.units, Math.floor(unitsDone ?? job.unitsDone)));
    const notDone = job.units - done;
    const amount = costOf(notDone, job.unitPrice);
    let refund: LedgerEntry | null = null;
    if (amount > 0) {
      const posted = await postEntry(tx, {
        orgId: job.orgId,
        userId: job.userId,
        amount,
        type: "refund",
        idempotencyKey: refundKey(job.id),
        actionType: job.action,
        relatedEntityId: job.id,
        description: refundDescription(job, notDone),
      });
      if (!posted.ok) throw new Error(`refund of job ${job.id} refused: ${posted.reason}`);
      refund = posted.entry;
    }
    const res = await tx.execute<JobRow>(sql`
      update charged_jobs set status = 'settled', units_done = ${done}, refunded = ${amount}, refund_entry_id = ${refund?.id ?? null},
             settled_at = now(), settled_by = ${by}
      where id = ${job.id}
      returning ${JOB_COLUMNS}`);
    const row = res.rows[0];
    if (!row) throw new Error(`charged job ${job.id} vanished while settling`);
    const balance = refund ? refund.balance_after : await balanceOf(tx, job.orgId);
    return { job: toJob(row), refunded: amount, refund, balance, alreadySettled: false };
  });
}

async function entryById(db: Sql, id: string): Promise<LedgerEntry | null> {
  const res = await db.execute<LedgerRow>(sql`select ${LEDGER_COLUMNS} from credit_ledger where id = ${id}`);
  const row = res.rows[0];
  return row ? toEntry(row) : null;
}

const NOUNS: Record<ActionType, [string, string]> = {
  batch_score: ["site", "sites"],
  report: ["report", "reports"],
  chat: ["question", "questions"],
};

function refundDescription(job: Job, notDone: number): string {
  const [one, many] = NOUNS[job.action];
  if (notDone === job.units) return `Refund: the ${job.units === 1 ? one : many} could not be completed`;
  return `Refund for ${notDone} ${notDone === 1 ? one : many} that could not be completed`;
}
