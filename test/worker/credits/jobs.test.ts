// Charged jobs: the debit and the job are one write; settlement refunds what was not done, exactly once.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { findJob, openJob, refundKey, settleJob, type OpenJobInput } from "../../../src/credits/jobs.ts";
import { sweepAbandonedJobs } from "../../../src/credits/sweep.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";
import { failWrites } from "../helpers/faults.ts";
import type { Db } from "../../../src/db/client.ts";

const input = (orgId: string, over: Partial<OpenJobInput> = {}): OpenJobInput => ({
  orgId,
  userId: null,
  action: "batch_score",
  units: 50,
  unitPrice: 0.1,
  idempotencyKey: `k:${crypto.randomUUID()}`,
  description: "test batch",
  timeoutMs: 60_000,
  ...over,
});

async function open(db: Db, orgId: string, over: Partial<OpenJobInput> = {}) {
  const r = await openJob(db, input(orgId, over));
  if (!r.ok) throw new Error(`not opened: ${r.reason}`);
  return r;
}

const backdate = (db: Db, jobId: string) =>
  db.execute(sql`update charged_jobs set settle_after = now() - interval '1 second' where id = ${jobId}`);

describe("opening a job", () => {
  it("debits the whole cost and records the job with its debit", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job, debit, replayed } = await open(db, orgId);
      expect(replayed).toBe(false);
      expect(job).toMatchObject({
        status: "charged",
        units: 50,
        unitPrice: 0.1,
        charged: 5,
        unitsDone: 0,
        refunded: null,
        debitEntryId: debit.id,
      });
      expect(debit).toMatchObject({
        amount: -5,
        type: "usage",
        action_type: "batch_score",
        related_entity_id: job.id,
        balance_after: 5,
      });
    });
  });

  it("is one transaction: when the job cannot be written, no debit is left behind", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const fault = await failWrites(db, "charged_jobs", "INSERT", orgId);
      try {
        await expect(openJob(db, input(orgId))).rejects.toThrow();
      } finally {
        await fault.clear(db);
      }
      const state = await ledgerState(db, orgId);
      expect(state.entries.map((e) => e.type)).toEqual(["adjustment"]);
      expect(state.cached).toBe(10);
    });
  });

  it("refuses a short balance without writing anything", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 1);
      expect(await openJob(db, input(orgId))).toEqual({
        ok: false,
        reason: "insufficient_credits",
        required: 5,
        available: 1,
      });
      const jobs = await db.execute(sql`select 1 from charged_jobs where org_id = ${orgId}`);
      expect(jobs.rows).toHaveLength(0);
    });
  });

  it("the same key, even ten times at once, opens one job and charges once", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const key = `k:${crypto.randomUUID()}`;
      const all = await Promise.all(
        Array.from({ length: 10 }, () => openJob(db, input(orgId, { idempotencyKey: key }))),
      );
      const ids = new Set(all.map((r) => (r.ok ? r.job.id : r.reason)));
      expect(ids.size).toBe(1);
      expect(all.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "usage")).toHaveLength(1);
      expect(state.cached).toBe(5);
    });
  });
});

describe("retrying under a used key", () => {
  it("replays a job that delivered, but a job refunded in full is new work, charged once however often it is retried", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const key = `k:${crypto.randomUUID()}`;
      const delivered = await open(db, orgId, { units: 1, unitPrice: 0.5, idempotencyKey: key });
      await settleJob(db, { jobId: delivered.job.id, unitsDone: 1, by: "request" });
      expect((await open(db, orgId, { units: 1, unitPrice: 0.5, idempotencyKey: key })).job.id).toBe(delivered.job.id);

      const failedKey = `k:${crypto.randomUUID()}`;
      const failed = await open(db, orgId, { units: 1, unitPrice: 0.5, idempotencyKey: failedKey });
      await settleJob(db, { jobId: failed.job.id, unitsDone: 0, by: "request" });
      const retries = await Promise.all(
        [1, 2, 3].map(() => open(db, orgId, { units: 1, unitPrice: 0.5, idempotencyKey: failedKey })),
      );
      expect(new Set(retries.map((r) => r.job.id)).size).toBe(1);
      expect(retries[0]?.job.id).not.toBe(failed.job.id);
      const state = await ledgerState(db, orgId);
      expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
        ["adjustment", 10],
        ["usage", -0.5],
        ["usage", -0.5],
        ["refund", 0.5],
        ["usage", -0.5],
      ]);
    });
  });
});

describe("settling a job", () => {
  it("refunds the units not done in one refund entry under the job's own key, and records it", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId);
      const s = await settleJob(db, { jobId: job.id, unitsDone: 2, by: "request" });
      expect(s).toMatchObject({ refunded: 4.8, balance: 9.8, alreadySettled: false });
      expect(s.refund).toMatchObject({
        amount: 4.8,
        type: "refund",
        action_type: "batch_score",
        related_entity_id: job.id,
      });
      expect(s.job).toMatchObject({
        status: "settled",
        unitsDone: 2,
        refunded: 4.8,
        refundEntryId: s.refund?.id,
        settledBy: "request",
      });
      const key = await db.execute<{ idempotency_key: string }>(
        sql`select idempotency_key from credit_ledger where id = ${s.refund?.id ?? ""}`,
      );
      expect(key.rows[0]?.idempotency_key).toBe(refundKey(job.id));
    });
  });

  it("all units done: settled with no refund entry", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId, { units: 3 });
      const s = await settleJob(db, { jobId: job.id, unitsDone: 3, by: "request" });
      expect(s).toMatchObject({ refunded: 0, refund: null, balance: 9.7 });
      expect((await ledgerState(db, orgId)).entries.map((e) => e.type)).toEqual(["adjustment", "usage"]);
    });
  });

  it("twice, or by two settlers at once, posts one refund; the later ones report the first settlement", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId);
      const [a, b] = await Promise.all([
        settleJob(db, { jobId: job.id, unitsDone: 2, by: "request" }),
        settleJob(db, { jobId: job.id, unitsDone: 2, by: "sweep" }),
      ]);
      expect([a.alreadySettled, b.alreadySettled].sort()).toEqual([false, true]);
      const again = await settleJob(db, { jobId: job.id, unitsDone: 50, by: "request" });
      expect(again).toMatchObject({ alreadySettled: true, refunded: 4.8 });
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([4.8]);
      expect(state.sum).toBeCloseTo(state.cached, 10);
    });
  });

  it("a refund that fails to write leaves the job charged, and nothing half-written", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId);
      const fault = await failWrites(db, "charged_jobs", "UPDATE", orgId);
      try {
        await expect(settleJob(db, { jobId: job.id, unitsDone: 2, by: "request" })).rejects.toThrow();
      } finally {
        await fault.clear(db);
      }
      expect((await findJob(db, job.id))?.status).toBe("charged");
      expect((await ledgerState(db, orgId)).entries.map((e) => e.type)).toEqual(["adjustment", "usage"]);
    });
  });

  it("a settled job is final in the database itself", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId);
      await settleJob(db, { jobId: job.id, unitsDone: 2, by: "request" });
      await expect(db.execute(sql`update charged_jobs set refunded = 0 where id = ${job.id}`)).rejects.toThrow();
      await expect(db.execute(sql`delete from charged_jobs where id = ${job.id}`)).rejects.toThrow();
    });
  });
});

describe("the sweep", () => {
  it("settles only overdue jobs, refunding the units they had not recorded as done", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const overdue = await open(db, orgId);
      const running = await open(db, orgId, { units: 10 });
      await db.execute(sql`update charged_jobs set units_done = 5 where id = ${overdue.job.id}`);
      await backdate(db, overdue.job.id);
      await sweepAbandonedJobs(db);
      expect(await findJob(db, overdue.job.id)).toMatchObject({ status: "settled", refunded: 4.5, settledBy: "sweep" });
      expect((await findJob(db, running.job.id))?.status).toBe("charged");
    });
  });

  it("two sweeps at once settle each overdue job exactly once", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 20);
      const jobs = [await open(db, orgId), await open(db, orgId), await open(db, orgId)];
      for (const j of jobs) await backdate(db, j.job.id);
      await Promise.all([sweepAbandonedJobs(db), sweepAbandonedJobs(db)]);
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([5, 5, 5]);
      expect(state.cached).toBe(20);
      expect(state.sum).toBeCloseTo(state.cached, 10);
    });
  });

  it("runs from the minute cron trigger", async () => {
    const { orgId, jobId } = await withDb(async (db) => {
      const id = await createBareOrg(db, 10);
      const { job } = await open(db, id);
      await backdate(db, job.id);
      return { orgId: id, jobId: job.id };
    });
    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await withDb(async (db) => {
      expect(await findJob(db, jobId)).toMatchObject({ status: "settled", settledBy: "sweep", refunded: 5 });
      expect((await ledgerState(db, orgId)).cached).toBe(10);
    });
  });
});
