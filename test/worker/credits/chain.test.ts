// Retries under a used key charge only what earlier jobs left unpaid; leases keep a running job from the sweep.
import { describe, expect, it } from "vitest";
import { openJob, settleJob, type OpenJobInput } from "../../../src/credits/jobs.ts";
import { recordProgress } from "../../../src/credits/lease.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";
import type { Db } from "../../../src/db/client.ts";

const input = (orgId: string, key: string): OpenJobInput => ({
  orgId,
  userId: null,
  action: "batch_score",
  units: 10,
  unitPrice: 0.1,
  idempotencyKey: key,
  description: "test batch",
  timeoutMs: 60_000,
});

async function open(db: Db, orgId: string, key: string) {
  const r = await openJob(db, input(orgId, key));
  if (!r.ok) throw new Error(`not opened: ${r.reason}`);
  return r;
}

describe("a chain of jobs under one key", () => {
  it("each retry charges what the last left unpaid, in one statement; paid in full, a retry is a free replay", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const key = `k:${crypto.randomUUID()}`;
      const first = await open(db, orgId, key);
      expect(first).toMatchObject({ replayed: false, paidUnits: 0, firstJobId: first.job.id });
      await settleJob(db, { jobId: first.job.id, unitsDone: 4, by: "request" });
      const second = await open(db, orgId, key);
      expect(second).toMatchObject({ replayed: false, paidUnits: 4, firstJobId: first.job.id, balance: 9 });
      expect(second.job).toMatchObject({ units: 6, charged: 0.6 });
      // While it runs, a retry gets it back as a replay and charges nothing.
      expect(await open(db, orgId, key)).toMatchObject({ replayed: true, paidUnits: 4, job: { status: "charged" } });
      await settleJob(db, { jobId: second.job.id, unitsDone: 6, by: "request" });
      const third = await open(db, orgId, key);
      expect(third).toMatchObject({ replayed: true, paidUnits: 10, firstJobId: first.job.id });
      expect(third.job.id).toBe(second.job.id);
      const state = await ledgerState(db, orgId);
      expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
        ["adjustment", 10],
        ["usage", -1],
        ["refund", 0.6],
        ["usage", -0.6],
      ]);
      expect(state.cached).toBe(9);
    });
  });

  it("ten retries at once after a partial delivery open one job for the rest", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const key = `k:${crypto.randomUUID()}`;
      const first = await open(db, orgId, key);
      await settleJob(db, { jobId: first.job.id, unitsDone: 7, by: "request" });
      const all = await Promise.all(Array.from({ length: 10 }, () => open(db, orgId, key)));
      expect(new Set(all.map((r) => r.job.id)).size).toBe(1);
      expect(all.filter((r) => !r.replayed)).toHaveLength(1);
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "usage").map((e) => e.amount)).toEqual([-1, -0.3]);
      expect(state.sum).toBeCloseTo(state.cached, 10);
    });
  });
});

describe("a job's lease", () => {
  it("progress is recorded only while the job is charged; the sweep does not claim a job whose lease was renewed", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const { job } = await open(db, orgId, `k:${crypto.randomUUID()}`);
      const now = new Date();
      expect(await recordProgress(db, { jobId: job.id, unitsDone: 3, until: new Date(now.getTime() + 120_000) })).toBe(
        true,
      );
      // The sweep saw it due a minute from now, but the lease now runs two.
      const swept = await settleJob(db, { jobId: job.id, by: "sweep", dueBy: new Date(now.getTime() + 60_000) });
      expect(swept).toMatchObject({ stillRunning: true, alreadySettled: false, refunded: 0 });
      const late = await settleJob(db, { jobId: job.id, by: "sweep", dueBy: new Date(now.getTime() + 180_000) });
      expect(late.job).toMatchObject({ status: "settled", unitsDone: 3, refunded: 0.7 });
      expect(await recordProgress(db, { jobId: job.id, unitsDone: 5, until: new Date() })).toBe(false);
      const state = await ledgerState(db, orgId);
      expect(state.entries.map((e) => e.type)).toEqual(["adjustment", "usage", "refund"]);
    });
  });
});
