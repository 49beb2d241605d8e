// Batch charging is exactly what was delivered: replays under an Idempotency-Key, slow readers, early leavers.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { settleJob } from "../../../src/credits/jobs.ts";
import { JOB_TIMEOUT_MS } from "../../../src/credits/timeouts.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { rowsLike, scorableRows } from "../../hostile/batch-files.ts";
import { SseReader } from "../../hostile/sse-reader.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";
import { until } from "../helpers/wait.ts";

const TEN = scorableRows(10);
const BATCH_TIMEOUT = JOB_TIMEOUT_MS.batch_score;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

afterEach(() => {
  JOB_TIMEOUT_MS.batch_score = BATCH_TIMEOUT;
});

const org = (credits: number): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));

interface JobState extends Record<string, unknown> {
  id: string;
  status: string;
  units: number;
  units_done: number;
  settled_by: string | null;
}

/** The organisation's batch jobs, oldest first. */
const jobsOf = (o: TestOrg): Promise<JobState[]> =>
  withDb(async (db) => {
    const res = await db.execute<JobState>(sql`
      select id, status, units, units_done, settled_by from charged_jobs where org_id = ${o.orgId} order by created_at`);
    return res.rows.map((r) => ({ ...r, units: Number(r.units), units_done: Number(r.units_done) }));
  });

/** Waits until the organisation has `n` jobs, all settled. */
const settled = (o: TestOrg, n: number) =>
  until(
    "settlement",
    () => jobsOf(o),
    (js) => js.length === n && js.every((j) => j.status === "settled"),
  );

/** The ledger as [type, amount] pairs, checked against the cached balance. */
async function ledger(o: TestOrg): Promise<[string, number][]> {
  const state = await withDb((db) => ledgerState(db, o.orgId));
  expect(state.sum).toBeCloseTo(state.cached, 10);
  return state.entries.map((e) => [e.type, e.amount]);
}

const results = (evs: { event: string }[]) => evs.filter((e) => e.event === "site_result").length;

/** Uploads `file` under `key`, takes the start and `rows` events, then leaves. */
async function readAndLeave(o: TestOrg, file: string, key: string, rows: number) {
  const stream = new SseReader(await upload(o.users.owner.token, file, { key }));
  const evs = await stream.take(1 + rows);
  await stream.cancel();
  return evs;
}

async function sweepNow(): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("a replay under the same Idempotency-Key", () => {
  it("after one row was read: charges, in one more entry, only the rows it delivers beyond the paid one; replays of replays too", async () => {
    const o = await org(10);
    const key = crypto.randomUUID();
    expect(results(await readAndLeave(o, TEN, key, 1))).toBe(1);
    await settled(o, 1);
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -1],
      ["refund", 0.9],
    ]);

    // The second request: 9 rows unpaid, charged up front; it reads 4 results (the first free) and leaves.
    const second = await readAndLeave(o, TEN, key, 4);
    expect(second[0]?.data).toMatchObject({ replayed: true, cost: 0.9, rows: 10 });
    expect(results(second)).toBe(4);
    const [first, retry] = await settled(o, 2);
    expect((second[0]?.data as { batch_id?: string } | undefined)?.batch_id).toBe(first?.id);
    expect(retry).toMatchObject({ units: 9, units_done: 3 });
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -1],
      ["refund", 0.9],
      ["usage", -0.9],
      ["refund", 0.6],
    ]);

    // A full replay pays for the 6 rows never paid, and nothing for the 4 that were.
    const third = await new SseReader(await upload(o.users.owner.token, TEN, { key })).rest();
    expect(results(third)).toBe(10);
    expect(third[0]?.data).toMatchObject({ cost: 0.6, replayed: true });
    expect(third.at(-1)).toMatchObject({ event: "batch_complete", data: { charged: 0.6, refunded: 0, scored: 10 } });
    await settled(o, 3);
    expect((await ledger(o)).slice(5)).toEqual([["usage", -0.6]]);

    // Every row is paid now: another full replay is free and writes nothing.
    const fourth = await new SseReader(await upload(o.users.owner.token, TEN, { key })).rest();
    expect(results(fourth)).toBe(10);
    expect(fourth[0]?.data).toMatchObject({ cost: 0, replayed: true, balance: 9 });
    expect(fourth.at(-1)).toMatchObject({ data: { charged: 0, refunded: 0, balance: 9, settlement: "settled" } });
    expect(await jobsOf(o)).toHaveLength(3);
    const all = await ledger(o);
    expect(all).toHaveLength(6);
    // Ten rows delivered, ten rows paid.
    expect(all.reduce((s, [, a]) => s + a, 0)).toBeCloseTo(9, 10);
  });

  it("short of credit for the unpaid rows: 402 naming what they cost, nothing written", async () => {
    const o = await org(1);
    const key = crypto.randomUUID();
    await readAndLeave(o, TEN, key, 1);
    await settled(o, 1);
    // Spend 0.1 elsewhere: 0.8 left, the 9 unpaid rows cost 0.9.
    await new SseReader(await upload(o.users.owner.token, scorableRows(1))).rest();
    await settled(o, 2);
    const before = await ledger(o);
    const res = await upload(o.users.owner.token, TEN, { key });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 0.9, available: 0.8, deficit: 0.1 },
    });
    expect(await ledger(o)).toEqual(before);
    expect(await jobsOf(o)).toHaveLength(2);
  });

  it("two at once: one is charged for the unpaid rows, the other is 409 and delivers nothing", async () => {
    const o = await org(10);
    const key = crypto.randomUUID();
    await readAndLeave(o, TEN, key, 1);
    await settled(o, 1);
    const both = await Promise.all([
      upload(o.users.owner.token, TEN, { key }),
      upload(o.users.owner.token, TEN, { key }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.status === 409);
    if (!refused) throw new Error("no refusal");
    expect(((await refused.json()) as { detail: string }).detail).toContain("still being delivered");
    const streamed = both.find((r) => r.status === 200);
    if (!streamed) throw new Error("no stream");
    expect(results(await new SseReader(streamed).rest())).toBe(10);
    await settled(o, 2);
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -1],
      ["refund", 0.9],
      ["usage", -0.9],
    ]);
  });
});

describe("a reader slower than the batch's deadline", () => {
  it("keeps its job: progress and the deadline are renewed, the sweep leaves it, and every row read is charged", async () => {
    JOB_TIMEOUT_MS.batch_score = 400;
    const o = await org(10);
    const stream = new SseReader(await upload(o.users.owner.token, TEN));
    expect(results(await stream.take(4))).toBe(3);
    // Three deadlines pass while the reader rests.
    await new Promise((r) => setTimeout(r, 1_200));
    await sweepNow();
    expect(await jobsOf(o)).toMatchObject([{ status: "charged", units_done: 3 }]);
    const rest = await stream.rest();
    expect(results(rest)).toBe(7);
    expect(rest.at(-1)).toMatchObject({ event: "batch_complete", data: { charged: 1, refunded: 0 } });
    expect(await settled(o, 1)).toMatchObject([{ units_done: 10, settled_by: "request" }]);
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -1],
    ]);
  });

  it("whose job the sweep settled anyway: the stream stops with an error instead of sending rows nobody pays for", async () => {
    JOB_TIMEOUT_MS.batch_score = 400;
    const o = await org(10);
    // Three results, then two rows outside every pack: the one the runtime's pipe holds is a free site_error.
    const stream = new SseReader(
      await upload(o.users.owner.token, rowsLike([true, true, true, false, false, true, true, true, true, true])),
    );
    expect(results(await stream.take(5))).toBe(3);
    const [job] = await until(
      "progress",
      () => jobsOf(o),
      (js) => js[0]?.units_done === 3,
    );
    // What the sweep does to a job whose lease ran out (here while its stream still runs).
    await withDb((db) => settleJob(db, { jobId: job?.id ?? "", by: "sweep" }));
    await new Promise((r) => setTimeout(r, 600));
    const rest = await stream.rest();
    expect(rest.map((e) => e.event)).toEqual(["site_error", "error"]);
    expect((rest[1]?.data as { detail?: string } | undefined)?.detail).toContain("3 results were delivered");
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -1],
      ["refund", 0.7],
    ]);
  });
});

describe("rows the client never pulled", () => {
  it("a client that reads batch_start and leaves is charged for no row", async () => {
    const o = await org(10);
    const evs = await readAndLeave(o, scorableRows(50), crypto.randomUUID(), 0);
    expect(evs.map((e) => e.event)).toEqual(["batch_start"]);
    expect(await settled(o, 1)).toMatchObject([{ units_done: 0 }]);
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -5],
      ["refund", 5],
    ]);
  });

  it("a client that reads five results and leaves is charged for five", async () => {
    const o = await org(10);
    expect(results(await readAndLeave(o, scorableRows(50), crypto.randomUUID(), 5))).toBe(5);
    expect(await settled(o, 1)).toMatchObject([{ units_done: 5 }]);
    expect(await ledger(o)).toEqual([
      ["adjustment", 10],
      ["usage", -5],
      ["refund", 4.5],
    ]);
  });
});
