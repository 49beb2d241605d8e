// Stored batches (docs/design.md section 5): rows kept as delivered, 30 days, only for the organisation that paid.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { EXPIRY_CRON } from "../../../src/scheduled.ts";
import { fixedScope } from "../../../src/packs/scope.ts";
import { loadPublicPacks, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parseSitesCsv } from "../../../src/batch/csv.ts";
import { chargeBatch, runBatch } from "../../../src/batch/run.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse, type ParsedEvent } from "../../support/sse.ts";
import { rowsLike, scorableRows } from "../../hostile/batch-files.ts";
import { SseReader } from "../../hostile/sse-reader.ts";
import { call, createTeamOrg, testPayer, withDb, type TestOrg } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";
import { until } from "../helpers/wait.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const org = (credits: number): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));

interface StoredBatch {
  batch_id: string;
  filename: string;
  file_rows: number;
  delivered: number;
  scored: number;
  failed: number;
  in_progress: boolean;
  model_versions: string[];
  totals: { delivered: number; scored: number; failed: number; charged: number; refunded: number };
  paid_by: { job_id: string; ledger_entry_id: string; refund_entry_id: string | null; charged: number }[];
  rows: ParsedEvent[];
  created_at: string;
  expires_at: string;
}

async function getBatch(token: string, id: string): Promise<{ status: number; body: StoredBatch }> {
  const res = await call(`/batch/${id}`, { token });
  return { status: res.status, body: (await res.json()) as StoredBatch };
}

const rowsOf = (events: ParsedEvent[]) => events.filter((e) => e.event === "site_result" || e.event === "site_error");
const batchIdOf = (events: ParsedEvent[]) => (events[0]?.data as { batch_id?: string } | undefined)?.batch_id ?? "";

/** The organisation's jobs, oldest first. */
const jobsOf = (o: TestOrg) =>
  withDb(async (db) => {
    const res = await db.execute<{ id: string; status: string; units_done: number }>(
      sql`select id, status, units_done from charged_jobs where org_id = ${o.orgId} order by created_at`,
    );
    return res.rows.map((r) => ({ ...r, units_done: Number(r.units_done) }));
  });

const allSettled = (o: TestOrg, n: number) =>
  until(
    "settlement",
    () => jobsOf(o),
    (js) => js.length === n && js.every((j) => j.status === "settled"),
  );

async function cron(cronText: string): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: cronText }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("a batch streamed to the end", () => {
  let o: TestOrg;
  let events: ParsedEvent[];
  let stored: StoredBatch;

  beforeAll(async () => {
    o = await org(10);
    // Scored rows and rows outside every pack, interleaved; the columns (site, latitude, longitude) are in an
    // order a jsonb column would not keep (it sorts keys by length).
    const file = rowsLike([true, false, true, true, false, true]);
    events = parseSse(await (await upload(o.users.owner.token, file, { name: "my sites.csv" })).text());
    const got = await getBatch(o.users.owner.token, batchIdOf(events));
    expect(got.status).toBe(200);
    stored = got.body;
  });

  it("GET /batch/{id} returns every row the stream sent, in order, exactly as sent", () => {
    const sent = rowsOf(events);
    expect(sent).toHaveLength(6);
    expect(stored.rows).toEqual(sent);
    // Byte for byte, key order included (a row's CSV columns keep their order).
    expect(JSON.stringify(stored.rows)).toBe(JSON.stringify(sent));
    expect(stored.rows.map((r) => r.event)).toEqual([
      "site_result",
      "site_error",
      "site_result",
      "site_result",
      "site_error",
      "site_result",
    ]);
  });

  it("names the model each row was scored with, the file, the totals and when it expires (30 days)", () => {
    const versions = rowsOf(events)
      .filter((e) => e.event === "site_result")
      .map((e) => (e.data as { feasibility: { model_version: string } }).feasibility.model_version);
    expect(stored.model_versions).toEqual([...new Set(versions)]);
    expect(stored.model_versions.length).toBeGreaterThan(0);
    expect(stored).toMatchObject({
      batch_id: batchIdOf(events),
      filename: "my sites.csv",
      file_rows: 6,
      delivered: 6,
      scored: 4,
      failed: 2,
      in_progress: false,
      totals: { delivered: 6, scored: 4, failed: 2, charged: 0.6, refunded: 0.2 },
    });
    const kept = Date.parse(stored.expires_at) - Date.parse(stored.created_at);
    expect(kept).toBe(30 * 24 * 3600 * 1000);
  });

  it("names the ledger entry and job that paid, and the ledger links that debit back to the batch", async () => {
    expect(stored.paid_by).toHaveLength(1);
    const [paid] = stored.paid_by;
    expect(paid?.job_id).toBe(stored.batch_id);
    const res = await call("/billing/credits/usage-history?page=1&page_size=10", { token: o.users.member.token });
    const { transactions } = (await res.json()) as {
      transactions: { id: string; type: string; result: { kind: string; id: string } | null }[];
    };
    const usage = transactions.find((t) => t.type === "usage");
    expect(usage?.id).toBe(paid?.ledger_entry_id);
    expect(usage?.result).toEqual({ kind: "batch", id: stored.batch_id });
    // Refunds and grants link to nothing.
    expect(transactions.filter((t) => t.type !== "usage").every((t) => t.result === null)).toBe(true);
    const latest = await call("/billing/credits/transactions?limit=5", { token: o.users.owner.token });
    const entries = (await latest.json()) as { type: string; result: unknown }[];
    expect(entries.find((t) => t.type === "usage")?.result).toEqual({ kind: "batch", id: stored.batch_id });
  });

  it("is listed for every member of the organisation, newest first, and for no other organisation", async () => {
    const second = parseSse(await (await upload(o.users.admin.token, scorableRows(1), { name: "one.csv" })).text());
    const res = await call("/batch?page=1&page_size=1", { token: o.users.member.token });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { batches: { batch_id: string; filename: string }[]; total: number };
    expect(list.total).toBe(2);
    expect(list.batches.map((b) => [b.batch_id, b.filename])).toEqual([[batchIdOf(second), "one.csv"]]);
    const page2 = (await (await call("/batch?page=2&page_size=1", { token: o.users.member.token })).json()) as {
      batches: { batch_id: string }[];
    };
    expect(page2.batches.map((b) => b.batch_id)).toEqual([stored.batch_id]);

    const other = await org(1);
    const theirs = (await (await call("/batch", { token: other.users.owner.token })).json()) as { total: number };
    expect(theirs.total).toBe(0);
  });

  it("is 404 to another organisation, with the same answer as an unknown id; a malformed id is 400", async () => {
    const other = await org(1);
    const res = await call(`/batch/${stored.batch_id}`, { token: other.users.owner.token });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string };
    const unknown = await call(`/batch/${crypto.randomUUID()}`, { token: o.users.owner.token });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(body);
    expect(body.detail).toMatch(/^Batch not found/);
    const bad = await call("/batch/not-a-uuid", { token: o.users.owner.token });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: "Invalid batch_id format" });
    expect((await call(`/batch/${stored.batch_id}`)).status).toBe(401);
  });
});

describe("a batch past its 30 days", () => {
  it("is 404 and left out of the list at once, and the hourly sweep deletes it with its rows", async () => {
    const o = await org(5);
    const events = parseSse(await (await upload(o.users.owner.token, scorableRows(2))).text());
    const id = batchIdOf(events);
    expect((await getBatch(o.users.owner.token, id)).status).toBe(200);
    await withDb((db) =>
      db.execute(sql`update stored_batches set expires_at = now() - interval '1 second' where id = ${id}`),
    );
    expect((await getBatch(o.users.owner.token, id)).status).toBe(404);
    const list = (await (await call("/batch", { token: o.users.owner.token })).json()) as { total: number };
    expect(list.total).toBe(0);
    const usage = (await (await call("/billing/credits/transactions", { token: o.users.owner.token })).json()) as {
      type: string;
      result: unknown;
    }[];
    expect(usage.find((t) => t.type === "usage")?.result).toBeNull();

    const count = () =>
      withDb(async (db) => {
        const res = await db.execute<{ batches: number; rows: number; jobs: number }>(sql`
          select (select count(*) from stored_batches where id = ${id})::int as batches,
                 (select count(*) from stored_batch_rows where batch_id = ${id})::int as rows,
                 (select count(*) from stored_batch_jobs where batch_id = ${id})::int as jobs`);
        return res.rows[0];
      });
    expect(await count()).toEqual({ batches: 1, rows: 2, jobs: 1 });
    // The minute's settlement sweep leaves stored results alone; the hourly expiry deletes them.
    await cron("* * * * *");
    expect(await count()).toEqual({ batches: 1, rows: 2, jobs: 1 });
    await cron(EXPIRY_CRON);
    expect(await count()).toEqual({ batches: 0, rows: 0, jobs: 0 });
  });
});

describe("a client that leaves part-way, then retries under the same key", () => {
  it("keeps exactly the rows it took and paid for; the retry's rows join the same batch, linked to both debits", async () => {
    const o = await org(10);
    const key = crypto.randomUUID();
    const file = scorableRows(6);
    const stream = new SseReader(await upload(o.users.owner.token, file, { key }));
    const first = await stream.take(1 + 2);
    await stream.cancel();
    const [job] = await allSettled(o, 1);
    const id = batchIdOf(first);
    const partial = (await getBatch(o.users.owner.token, id)).body;
    // What the ledger kept charged is what the server keeps: no stored row the client did not take is shown.
    expect(partial.rows).toHaveLength(job?.units_done ?? -1);
    expect(partial.rows).toEqual(rowsOf(first).slice(0, partial.rows.length));
    expect(partial.in_progress).toBe(false);

    const again = parseSse(await (await upload(o.users.owner.token, file, { key })).text());
    expect(batchIdOf(again)).toBe(id);
    await allSettled(o, 2);
    const whole = (await getBatch(o.users.owner.token, id)).body;
    expect(whole.rows).toEqual(rowsOf(again));
    expect(whole.rows).toHaveLength(6);
    // The rows the first request delivered are kept as it delivered them.
    expect(whole.rows.slice(0, partial.rows.length)).toEqual(partial.rows);
    expect(whole.paid_by.map((p) => p.job_id)).toEqual((await jobsOf(o)).map((j) => j.id));
    const history = (await (
      await call("/billing/credits/usage-history?page=1&page_size=20", { token: o.users.owner.token })
    ).json()) as { transactions: { id: string; type: string; result: unknown }[] };
    const debits = history.transactions.filter((t) => t.type === "usage");
    expect(debits).toHaveLength(2);
    expect(debits.every((d) => JSON.stringify(d.result) === JSON.stringify({ kind: "batch", id }))).toBe(true);
    expect(new Set(debits.map((d) => d.id))).toEqual(new Set(whole.paid_by.map((p) => p.ledger_entry_id)));
  });
});

describe("the store before the stream", () => {
  it("a row that cannot be stored is never sent: the stream stops, says so, and charges only the rows kept", async () => {
    const o = await org(10);
    const name = `fault_rows_${o.orgId.replaceAll("-", "")}`;
    // Every row from the fourth on fails to store, for this organisation's batches only (found by the row's job: the
    // batch is written by the same statement as its rows, so a trigger cannot see it yet).
    await withDb(async (db) => {
      await db.execute(
        sql.raw(`create function ${name}() returns trigger as $$ begin
            if new.idx >= 3 and exists (select 1 from charged_jobs where id = new.job_id and org_id = '${o.orgId}') then
              raise exception 'injected fault';
            end if;
            return new;
          end; $$ language plpgsql`),
      );
      await db.execute(
        sql.raw(`create trigger ${name} before insert on stored_batch_rows for each row execute function ${name}()`),
      );
    });
    let events: ParsedEvent[];
    try {
      events = parseSse(await (await upload(o.users.owner.token, scorableRows(6))).text());
    } finally {
      await withDb(async (db) => {
        await db.execute(sql.raw(`drop trigger ${name} on stored_batch_rows`));
        await db.execute(sql.raw(`drop function ${name}()`));
      });
    }
    expect(rowsOf(events)).toHaveLength(3);
    const last = events.at(-1);
    expect(last?.event).toBe("error");
    expect((last?.data as { detail?: string } | undefined)?.detail).toMatch(/could not be stored after 3 of 6 rows/);
    const [job] = await allSettled(o, 1);
    expect(job?.units_done).toBe(3);
    const stored = (await getBatch(o.users.owner.token, batchIdOf(events))).body;
    expect(stored.rows).toEqual(rowsOf(events));
    expect(stored.totals).toMatchObject({ charged: 0.6, refunded: 0.3 });
  });

  it("whatever the job charged is shown, even where the delivered mark was never written (an isolate died first)", async () => {
    const o = await org(10);
    const events = parseSse(await (await upload(o.users.owner.token, rowsLike([true, false, true]))).text());
    const id = batchIdOf(events);
    await allSettled(o, 1);
    await withDb((db) => db.execute(sql`update stored_batch_rows set delivered = false where batch_id = ${id}`));
    const got = (await getBatch(o.users.owner.token, id)).body;
    // The two results were charged (units_done 2), so they stay; the error row relied on its mark alone.
    expect(got.rows).toEqual(rowsOf(events).filter((e) => e.event === "site_result"));
    expect(got.totals).toMatchObject({ delivered: 2, scored: 2, failed: 0 });
  });

  it("an isolate that dies after storing a row and before the client took it: the row is never shown, nor charged", async () => {
    const parsed = parseSitesCsv(scorableRows(4));
    if (!parsed.ok) throw new Error(parsed.detail);
    const o = await org(10);
    const { batchId, yielded } = await withDb(async (db) => {
      const ctx = { payer: testPayer(db, o), packs: fixedScope(await loadPublicPacks(env.PACKS, "public/")) };
      const charged = await chargeBatch(ctx, parsed, `test:${crypto.randomUUID()}`);
      const gen = runBatch(ctx, parsed, charged);
      const out: unknown[] = [];
      for (let i = 0; i < 3; i++) out.push((await gen.next()).value);
      // Row 0 was taken (the client asked for the next event); row 1 is out, never taken.
      // Dropped without return(): like an isolate that stops, no finally block runs.
      return { batchId: charged.firstId, yielded: out };
    });
    const stored = await withDb(async (db) => {
      const res = await db.execute<{ idx: number; delivered: boolean }>(
        sql`select idx, delivered from stored_batch_rows where batch_id = ${batchId} order by idx`,
      );
      return res.rows;
    });
    // Every row was stored before the first was sent; deliveries are written with the settlement, which never came.
    expect(stored).toEqual([0, 1, 2, 3].map((idx) => ({ idx, delivered: false })));
    const got = (await getBatch(o.users.owner.token, batchId)).body;
    const outNeverTaken = (yielded[2] as ParsedEvent).data;
    expect(got.rows.map((r) => r.data)).not.toContainEqual(outNeverTaken);
    // Nor row 0: its delivery was not recorded before the isolate stopped, so it is neither shown nor charged.
    expect(got.rows).toEqual([]);
    expect(got.in_progress).toBe(true);
    // The sweep settles it for what was recorded done: never for the row the server does not show.
    await withDb((db) =>
      db.execute(sql`update charged_jobs set settle_after = now() - interval '1 second' where id = ${batchId}`),
    );
    await cron("* * * * *");
    const [job] = await jobsOf(o);
    expect(job?.status).toBe("settled");
    expect(job?.units_done).toBeLessThanOrEqual(got.rows.length);
  });
});
