// Stored reports (docs/design.md section 5): the PDF kept 30 days, byte for byte, only for the organisation that paid.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { EXPIRY_CRON } from "../../../src/scheduled.ts";
import { reportObjectKey } from "../../../src/report/keep.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { SseReader } from "../../hostile/sse-reader.ts";
import { call, createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { fetchWith } from "../helpers/app.ts";
import { generate, reportEvents } from "../helpers/report.ts";
import { until } from "../helpers/wait.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const org = (credits: number): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));

// Two Newtown lots by their centroids.
const BODY = {
  scores: [{ input: { site_name: "First" } }, { input: { site_name: "Second" } }],
  parcel_geojsons: [
    { type: "Point", coordinates: [151.175546, -33.897466] },
    { type: "Point", coordinates: [151.177005, -33.898897] },
  ],
  location: "Newtown, NSW",
  top_n: 2,
};

async function pdfOf(token: string, id: string): Promise<Response> {
  return call(`/report/${id}`, { token });
}

const storedRow = (id: string) =>
  withDb(async (db) => (await db.execute(sql`select id from stored_reports where id = ${id}`)).rows.length);

async function cron(cronText: string): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: cronText }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("a report delivered and paid for", () => {
  let o: TestOrg;
  let r: Awaited<ReturnType<typeof reportEvents>>;

  beforeAll(async () => {
    o = await org(5);
    r = await reportEvents(await generate(o.users.owner.token, BODY));
  });

  it("GET /report/{id} answers the PDF byte for byte as report_complete sent it", async () => {
    const res = await pdfOf(o.users.member.token, r.done.report_id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${r.done.filename}"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(r.done.bytes);
    expect(bytes).toEqual(r.pdf);
  });

  it("is listed for the organisation with its pages, size and the debit that paid; the ledger links the debit to it", async () => {
    const list = (await (await call("/report", { token: o.users.owner.token })).json()) as {
      reports: { report_id: string; filename: string; pages: number; bytes: number; ledger_entry_id: string }[];
      total: number;
    };
    expect(list.total).toBe(1);
    expect(list.reports[0]).toMatchObject({
      report_id: r.done.report_id,
      filename: r.done.filename,
      pages: r.done.pages,
      bytes: r.done.bytes,
    });
    const entries = (await (await call("/billing/credits/transactions", { token: o.users.owner.token })).json()) as {
      id: string;
      type: string;
      result: unknown;
    }[];
    const debit = entries.find((t) => t.type === "usage");
    expect(debit?.id).toBe(list.reports[0]?.ledger_entry_id);
    expect(debit?.result).toEqual({ kind: "report", id: r.done.report_id });
  });

  it("is 404 to another organisation, like an unknown id; a malformed id is 400", async () => {
    const other = await org(1);
    const theirs = await pdfOf(other.users.owner.token, r.done.report_id);
    expect(theirs.status).toBe(404);
    const body = (await theirs.json()) as { detail: string };
    expect(body.detail).toMatch(/^Report not found/);
    const unknown = await pdfOf(o.users.owner.token, crypto.randomUUID());
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(body);
    const bad = await pdfOf(o.users.owner.token, "12345");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: "Invalid report_id format" });
    const list = (await (await call("/report", { token: other.users.owner.token })).json()) as { total: number };
    expect(list.total).toBe(0);
  });

  it("past its 30 days: 404 at once, and the hourly sweep deletes its PDF and its row", async () => {
    const id = r.done.report_id;
    const key = reportObjectKey(o.orgId, id);
    expect(await env.PACKS.head(key)).not.toBeNull();
    await withDb((db) =>
      db.execute(sql`update stored_reports set expires_at = now() - interval '1 second' where id = ${id}`),
    );
    expect((await pdfOf(o.users.owner.token, id)).status).toBe(404);
    await cron(EXPIRY_CRON);
    expect(await env.PACKS.head(key)).toBeNull();
    expect(await storedRow(id)).toBe(0);
  });
});

describe("a report the client did not take", () => {
  it("is refunded and never shown, even if its PDF was stored before report_complete went out", async () => {
    const o = await org(5);
    const stream = new SseReader(await generate(o.users.owner.token, BODY));
    let id = "";
    // Reads up to the last progress event, then leaves before report_complete is taken.
    for (;;) {
      const [e] = await stream.take(1);
      if (!e) break;
      const data = e.data as { report_id?: string; stage?: string };
      if (data.report_id) id = data.report_id;
      if (data.stage === "assembling") break;
    }
    await stream.cancel();
    await until(
      "the refund",
      () => withDb((db) => ledgerState(db, o.orgId)),
      (s) => s.entries.some((e) => e.type === "refund"),
    );
    expect((await pdfOf(o.users.owner.token, id)).status).toBe(404);
    const list = (await (await call("/report", { token: o.users.owner.token })).json()) as { total: number };
    expect(list.total).toBe(0);
  });
});

describe("a PDF that cannot be stored", () => {
  it("is not sent: the stream ends in an error, the charge is refunded and no row is left", async () => {
    const o = await org(5);
    // R2 refuses the report's PDF only; packs still read as usual.
    const refusing = new Proxy(env.PACKS, {
      get(target, prop) {
        if (prop === "put") return () => Promise.reject(new Error("R2 internal error (simulated outage)"));
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const res = await fetchWith(
      { PACKS: refusing },
      "/report/generate",
      {
        method: "POST",
        headers: { Authorization: `Bearer ${o.users.owner.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(BODY),
      },
      { waitForBackground: false },
    );
    const events = parseSse(await res.text());
    expect(events.some((e) => e.event === "report_complete")).toBe(false);
    expect(events.at(-1)?.event).toBe("error");
    const id = res.headers.get("x-report-id") ?? "";
    const state = await until(
      "the refund",
      () => withDb((db) => ledgerState(db, o.orgId)),
      (s) => s.entries.some((e) => e.type === "refund"),
    );
    expect(state.cached).toBe(5);
    expect(await storedRow(id)).toBe(0);
    expect(await env.PACKS.head(reportObjectKey(o.orgId, id))).toBeNull();
  });
});
