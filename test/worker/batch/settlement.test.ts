// A charged batch settles whatever the client does: disconnects, a database failing at the refund, a dying isolate.
import { fixedScope } from "../../../src/packs/scope.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { resetPublicPacks, loadPublicPacks } from "../../../src/packs/registry.ts";
import { parseSitesCsv } from "../../../src/batch/csv.ts";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { chargeBatch, runBatch } from "../../../src/batch/run.ts";
import { findJob, type Job } from "../../../src/credits/jobs.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { createTeamOrg, ledgerState, testPayer, withDb, type TestOrg } from "../helpers/billing.ts";
import { failWrites } from "../helpers/faults.ts";
import { upload } from "../helpers/batch.ts";
import { until } from "../helpers/wait.ts";

// 50 rows: two on Newtown lots, 48 outside every pack. Scoring charges 0.2 once settled.
const TWO_OF_50 = [
  "site,latitude,longitude",
  "a,-33.897466,151.175546",
  "b,-33.898897,151.177005",
  ...Array.from({ length: 48 }, (_, i) => `far ${i},-20.0,${(130 + i / 100).toFixed(2)}`),
].join("\n");

const NEWTOWN_ROWS = newtown.trim().split("\n").length - 1;
const NEWTOWN = newtown;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const org = (credits: number): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
const job = (id: string): Promise<Job | undefined> => withDb((db) => findJob(db, id));

async function sweepNow(): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const overdue = (jobId: string) =>
  withDb((db) =>
    db.execute(sql`update charged_jobs set settle_after = now() - interval '1 second' where id = ${jobId}`),
  );

describe("a client that goes away", () => {
  it("right after the response headers: no result was taken, so the whole charge is refunded", async () => {
    const o = await org(10);
    const res = await upload(o.users.owner.token, TWO_OF_50);
    expect(res.status).toBe(200);
    const batchId = res.headers.get("x-batch-id") ?? "";
    await res.body?.cancel();
    const settled = await until(
      "settlement",
      () => job(batchId),
      (j) => j?.status === "settled",
    );
    expect(settled).toMatchObject({ unitsDone: 0, refunded: 5, settledBy: "request" });
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 10],
      ["usage", -5],
      ["refund", 5],
    ]);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });

  it("after its first result: charged only for the results it took, the rest refunded in one entry", async () => {
    const o = await org(10);
    const res = await upload(o.users.owner.token, NEWTOWN);
    const batchId = res.headers.get("x-batch-id") ?? "";
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // A whole event, not just its first line: a large row may arrive in more than one chunk.
    const whole = () => {
      const at = text.indexOf("event: site_result");
      return at >= 0 && text.indexOf("\n\n", at) > 0;
    };
    while (!whole()) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended before a result");
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    const settled = await until(
      "settlement",
      () => job(batchId),
      (j) => j?.status === "settled",
    );
    // The producer runs at most an event ahead of the reader: far fewer than the 10 rows were delivered.
    expect(settled?.unitsDone).toBeGreaterThanOrEqual(1);
    expect(settled?.unitsDone).toBeLessThan(NEWTOWN_ROWS);
    const refund = Math.round((NEWTOWN_ROWS - (settled?.unitsDone ?? 0)) * 1000) / 10_000;
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 10],
      ["usage", -NEWTOWN_ROWS / 10],
      ["refund", refund],
    ]);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });
});

describe("the database failing when the refund is written", () => {
  it("the stream claims no refund and says settlement is deferred; the sweep then settles it once", async () => {
    const o = await org(10);
    const fault = await withDb((db) => failWrites(db, "charged_jobs", "UPDATE", o.orgId));
    let batchId = "";
    try {
      const res = await upload(o.users.owner.token, TWO_OF_50);
      batchId = res.headers.get("x-batch-id") ?? "";
      const done = parseSse(await res.text()).at(-1);
      expect(done).toMatchObject({
        event: "batch_complete",
        data: { scored: 2, charged: 5, refunded: 0, balance: null, settlement: "deferred" },
      });
      expect((done?.data as { detail: string } | undefined)?.detail).toContain("settled automatically");
      // What the stream said is what the ledger holds: the charge, no refund yet.
      const state = await withDb((db) => ledgerState(db, o.orgId));
      expect(state.entries.map((e) => e.type)).toEqual(["adjustment", "usage"]);
      expect((await job(batchId))?.status).toBe("charged");
    } finally {
      await withDb((db) => fault.clear(db));
    }
    await overdue(batchId);
    await Promise.all([sweepNow(), sweepNow()]);
    expect(await job(batchId)).toMatchObject({ status: "settled", settledBy: "sweep", refunded: 5 });
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([5]);
    expect(state.cached).toBe(10);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });
});

describe("an isolate that dies mid-batch", () => {
  it("leaves the job charged; two sweeps at once settle it exactly once", async () => {
    const parsed = parseSitesCsv(TWO_OF_50);
    if (!parsed.ok) throw new Error(parsed.detail);
    const o = await org(10);
    const batchId = await withDb(async (db) => {
      const ctx = { payer: testPayer(db, o), packs: fixedScope(await loadPublicPacks(env.PACKS, "public/")) };
      const charged = await chargeBatch(ctx, parsed, `test:${crypto.randomUUID()}`);
      const gen = runBatch(ctx, parsed, charged);
      await gen.next();
      await gen.next();
      // Dropped without return(): like an isolate that stops, no finally block runs.
      return charged.id;
    });
    expect((await job(batchId))?.status).toBe("charged");
    await sweepNow();
    expect((await job(batchId))?.status).toBe("charged");
    await overdue(batchId);
    await Promise.all([sweepNow(), sweepNow()]);
    expect(await job(batchId)).toMatchObject({ status: "settled", settledBy: "sweep", refunded: 5 });
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 10],
      ["usage", -5],
      ["refund", 5],
    ]);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });
});
