// POST /report/generate through the real app: a batch run piped into a report, validation, credits, streaming.
import { fixedScope } from "../../../src/packs/scope.ts";
import { SELF, createExecutionContext, env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { createApp } from "../../../src/app.ts";
import { resetPublicPacks, loadPublicPacks } from "../../../src/packs/registry.ts";
import { sseResponse } from "../../../src/http/sse.ts";
import { reserve } from "../../../src/credits/charged-work.ts";
import { generateReport, reportErrorEvent } from "../../../src/report/generate.ts";
import { ReportGenerateRequestSchema } from "../../../src/report/schema.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { mintToken } from "../../support/tokens.ts";
import { pdfPageTexts } from "../../support/pdf-text.ts";
import { createTeamOrg, ledgerState, testPayer, withDb, type TestOrg } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";
import { until } from "../helpers/wait.ts";
import { findJob } from "../../../src/credits/jobs.ts";
import { generate, progress, reportEvents } from "../helpers/report.ts";
import { databaseDown } from "../helpers/faults.ts";

interface SiteResult {
  score: number;
  parcel: { lot_id: string; centroid: [number, number]; geojson: { geometry: unknown } };
}

const STREET = { type: "Point", coordinates: [151.1789, -33.8985] };
let sites: SiteResult[];

async function org(credits: number): Promise<TestOrg> {
  return withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
}
const ledger = (o: TestOrg) => withDb((db) => ledgerState(db, o.orgId));
const usage = async (o: TestOrg) => (await ledger(o)).entries.filter((e) => e.type === "usage").map((e) => e.amount);

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  // As a client would: run the batch, keep its site_result objects.
  const o = await org(10);
  const evs = parseSse(await (await upload(o.users.owner.token, newtown)).text());
  sites = evs.filter((e) => e.event === "site_result").map((e) => e.data as SiteResult);
  expect(sites.length).toBe(10);
});

const points = () => sites.map((s) => ({ type: "Point", coordinates: s.parcel.centroid }));

describe("a batch run piped into a report", () => {
  let o: TestOrg;
  let res: Response;
  let r: Awaited<ReturnType<typeof reportEvents>>;
  let texts: string[];

  beforeAll(async () => {
    o = await org(5);
    const body = {
      scores: [...sites, { input: { site_name: "Kerbside point" } }],
      parcel_geojsons: [...points(), STREET],
      location: "Newtown, NSW",
      top_n: 3,
    };
    res = await generate(o.users.member.token, body);
    r = await reportEvents(res);
    texts = await pdfPageTexts(r.pdf);
  });

  it("streams uncompressed progress through every stage, then report_complete", () => {
    expect(res.headers.get("content-encoding")).toBe("identity");
    expect(res.headers.get("x-report-id")).toBe(r.done.report_id);
    const p = progress(r.events);
    expect(r.events.slice(0, -1).every((e) => e.event === "progress")).toBe(true);
    expect([...new Set(p.map((e) => e.stage))]).toEqual(["resolving", "ranking", "drawing", "assembling"]);
    expect(p[0]).toMatchObject({ stage: "resolving", percent: 0, report_id: r.done.report_id, charged: 0.5 });
    expect(r.done.filename).toBe(`feasibility-report-newtown-nsw-${r.done.filename.slice(-14, -4)}.pdf`);
  });

  it("replaces each Point by the cadastre lot containing it, and names the unresolved Point", () => {
    const siteEvents = progress(r.events)
      .filter((e) => e.site)
      .map((e) => e.site as Record<string, unknown>);
    expect(siteEvents).toHaveLength(11);
    for (const [i, s] of sites.entries()) {
      expect(siteEvents[i]).toMatchObject({
        index: i,
        status: "resolved",
        source: "cadastre_at_point",
        lot_id: s.parcel.lot_id,
        score: s.score,
      });
    }
    expect(siteEvents[10]).toMatchObject({
      index: 10,
      status: "unresolved",
      detail: expect.stringContaining("No parcel at"),
    });
    expect(r.done.unresolved).toEqual([10]);
    expect(texts[1]).toContain("Unresolved sites");
    expect(texts[1]).toContain("Kerbside point");
  });

  it("details the top 3 by score, best first", () => {
    const drawn = progress(r.events).filter((e) => e.stage === "drawing" && e.rank !== undefined);
    expect(drawn.map((e) => e.rank)).toEqual([1, 2, 3]);
    const best = [...sites]
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .map((s) => s.score);
    expect(drawn.map((e) => e.score)).toEqual(best);
    expect(r.done).toMatchObject({ ranked: 10, detailed: 3 });
  });

  it("the PDF has the pages and bytes the event says, and every lot id with its score in the summary table", async () => {
    expect(r.done.bytes).toBe(r.pdf.length);
    const doc = await PDFDocument.load(r.pdf);
    expect(doc.getPageCount()).toBe(r.done.pages);
    // Cover and summary, each detailed site's page and what it is worth (a page of its own), the method.
    expect(r.done.pages).toBe(2 + 3 * 2 + 1);
    // The transport pack covers every site but only the map draws it: it is not among the report's sources.
    expect(texts.join("\n")).not.toContain("sydney-transport");
    expect(texts[0]).toContain("Newtown, NSW");
    const rows = (texts[1] ?? "").split("\n");
    for (const s of sites) {
      const at = rows.indexOf(s.parcel.lot_id);
      expect(at, s.parcel.lot_id).toBeGreaterThan(0);
      // Row cells in order: rank, lot, site, area, zone, score, rating.
      expect(rows[at + 4]).toBe(String(s.score));
    }
  });

  it("the cover names the organisation that paid (its name comes back with the charge)", () => {
    expect(texts[0]).toContain(o.name);
  });

  it("is charged once, 0.5 credit, as a report", async () => {
    const state = await ledger(o);
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 5],
      ["usage", -0.5],
    ]);
    expect(state.cached).toBe(4.5);
    const tx = await withDb(
      async (db) =>
        (
          await db.execute<{ action_type: string; related_entity_id: string }>(
            (
              await import("drizzle-orm")
            )
              .sql`select action_type, related_entity_id from credit_ledger where org_id = ${o.orgId} and type = 'usage'`,
          )
        ).rows,
    );
    expect(tx).toEqual([{ action_type: "report", related_entity_id: r.done.report_id }]);
  });
});

describe("streaming", () => {
  it("the first event reaches the client before the PDF is assembled", async () => {
    const o = await org(5);
    const res = await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points() });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: progress");
    expect(first).not.toContain("report_complete");
    let rest = "";
    for (let x = await reader.read(); !x.done; x = await reader.read()) rest += new TextDecoder().decode(x.value);
    expect(rest).toContain("event: report_complete");
  });
});

describe("validation: 422 with loc, nothing charged", () => {
  let o: TestOrg;
  // An organisation per test: its report rate limit (src/http/rate-limit.ts) is not what these tests exercise.
  beforeEach(async () => {
    o = await org(5);
  });
  const square = [
    [
      [151.17, -33.89],
      [151.171, -33.89],
      [151.171, -33.891],
      [151.17, -33.891],
      [151.17, -33.89],
    ],
  ];
  // The square's corners joined crosswise, and the square with a spike out and back along one line.
  const [a, b, c, d] = square[0] as number[][];
  const bowtie = [a, c, b, d, a];
  const spike = [a, b, [151.171, -33.8905], [151.172, -33.8905], [151.171, -33.8905], c, d, a];
  const cases: [string, unknown, (string | number)[]][] = [
    [
      "a Point without valid coordinates",
      { scores: [], parcel_geojsons: [STREET, STREET, { type: "Point", coordinates: [151.17] }] },
      ["body", "parcel_geojsons", 2, "coordinates"],
    ],
    [
      "an unclosed ring",
      { scores: [], parcel_geojsons: [{ type: "Polygon", coordinates: [square[0]!.slice(0, 4)] }] },
      ["body", "parcel_geojsons", 0, "coordinates", 0],
    ],
    [
      "an unknown type",
      { scores: [], parcel_geojsons: [{ type: "Circle", coordinates: [151.17, -33.89] }] },
      ["body", "parcel_geojsons", 0, "type"],
    ],
    [
      "a bowtie polygon (self-crossing, 0 m2), named by site index",
      { scores: [], parcel_geojsons: [STREET, { type: "Polygon", coordinates: [bowtie] }] },
      ["body", "parcel_geojsons", 1, "coordinates", 0],
    ],
    [
      "a polygon with a zero-width spike, named by site index",
      { scores: [], parcel_geojsons: [STREET, STREET, { type: "Polygon", coordinates: [spike] }] },
      ["body", "parcel_geojsons", 2, "coordinates", 0],
    ],
    ["top_n 0", { scores: [{}], parcel_geojsons: [STREET], top_n: 0 }, ["body", "top_n"]],
    ["top_n 51", { scores: [{}], parcel_geojsons: [STREET], top_n: 51 }, ["body", "top_n"]],
    ["top_n 2.5", { scores: [{}], parcel_geojsons: [STREET], top_n: 2.5 }, ["body", "top_n"]],
    ["a score that is not an object", { scores: ["high"], parcel_geojsons: [STREET] }, ["body", "scores", 0]],
    ["no scores field", { parcel_geojsons: [STREET] }, ["body", "scores"]],
  ];
  it.each(cases)("%s", async (_, body, loc) => {
    const res = await generate(o.users.owner.token, body);
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string }[] }>();
    expect(detail.map((d) => d.loc)).toContainEqual(loc);
    expect(await usage(o)).toEqual([]);
  });

  it("a self-crossing polygon: the message says where and why, and the ledger is untouched", async () => {
    const res = await generate(o.users.owner.token, {
      scores: [],
      parcel_geojsons: [{ type: "Polygon", coordinates: [bowtie] }],
    });
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string }[] }>();
    expect(detail[0]?.msg).toMatch(
      /^The outer ring crosses or touches itself near \[151\.1705, -33\.8905\] .*must not self-intersect$/,
    );
    expect((await ledger(o)).cached).toBe(5);
    expect(await usage(o)).toEqual([]);
  });

  it("a valid concave (L-shaped) lot is accepted and reported", async () => {
    const lot = [
      [151.17, -33.89],
      [151.171, -33.89],
      [151.171, -33.8905],
      [151.1705, -33.8905],
      [151.1705, -33.891],
      [151.17, -33.891],
      [151.17, -33.89],
    ];
    const r = await reportEvents(
      await generate(o.users.owner.token, { scores: [], parcel_geojsons: [{ type: "Polygon", coordinates: [lot] }] }),
    );
    expect(r.done.pages).toBeGreaterThan(0);
    expect(await usage(o)).toEqual([-0.5]);
  });

  it("a body that is not JSON: 415", async () => {
    const res = await SELF.fetch("https://api.test/report/generate", {
      method: "POST",
      headers: { Authorization: `Bearer ${o.users.owner.token}`, "Content-Type": "text/plain" },
      body: "scores please",
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      detail: "Unsupported media type: send the body as Content-Type: application/json",
    });
  });

  it("malformed JSON: 422 json_invalid", async () => {
    const res = await generate(o.users.owner.token, "{ not json");
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { type: string }[] }>()).detail[0]?.type).toBe("json_invalid");
  });

  it("a body over 2 MiB: 413 before parsing", async () => {
    const big = JSON.stringify({ scores: [{ pad: "x".repeat(2.1 * 1024 * 1024) }], parcel_geojsons: [STREET] });
    const res = await generate(o.users.owner.token, big);
    expect(res.status).toBe(413);
    expect((await res.json<{ detail: string }>()).detail).toContain("2 MiB");
    expect(await usage(o)).toEqual([]);
  });
});

describe("top_n bounds", () => {
  it("top_n 1 details one site; top_n 50 details every ranked site", async () => {
    const o = await org(5);
    const one = await reportEvents(
      await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points(), top_n: 1 }),
    );
    expect(one.done).toMatchObject({ detailed: 1, pages: 2 + 2 + 1 });
    const all = await reportEvents(
      await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points(), top_n: 50 }),
    );
    expect(all.done).toMatchObject({ detailed: 10, ranked: 10, pages: 2 + 10 * 2 + 1 });
  });
});

describe("when scores and parcel_geojsons differ in length", () => {
  it("more scores: the extra score objects are located from their own parcel data", async () => {
    const o = await org(5);
    const r = await reportEvents(
      await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points().slice(0, 4) }),
    );
    expect(progress(r.events)[0]?.message).toContain("10 score objects, 4 geometries: paired by position");
    const located = progress(r.events)
      .filter((e) => e.site)
      .map((e) => e.site as { status: string; lot_id: string });
    expect(located.map((s) => s.status)).toEqual(Array(10).fill("resolved"));
    expect(located.map((s) => s.lot_id)).toEqual(sites.map((s) => s.parcel.lot_id));
  });

  it("more geometries: the extra geometries are assessed on their own", async () => {
    const o = await org(5);
    const r = await reportEvents(
      await generate(o.users.owner.token, {
        scores: sites.slice(0, 2),
        parcel_geojsons: [...points().slice(0, 3), STREET],
      }),
    );
    const located = progress(r.events)
      .filter((e) => e.site)
      .map((e) => e.site as { status: string });
    expect(located.map((s) => s.status)).toEqual(["resolved", "resolved", "resolved", "unresolved"]);
    expect(r.done).toMatchObject({ ranked: 3, unresolved: [3] });
  });
});

describe("credits", () => {
  it("short balance: 402 with the structured body before anything is streamed, nothing charged", async () => {
    const o = await org(0.4);
    const res = await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points() });
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 0.5, available: 0.4, deficit: 0.1 },
    });
    expect((await ledger(o)).cached).toBe(0.4);
    expect(await usage(o)).toEqual([]);
  });

  it("the same Idempotency-Key twice: charged once, the same report id, the same PDF", async () => {
    const o = await org(5);
    const key = crypto.randomUUID();
    const body = { scores: sites, parcel_geojsons: points(), location: "Newtown" };
    const first = await reportEvents(await generate(o.users.owner.token, body, key));
    const second = await reportEvents(await generate(o.users.owner.token, body, key));
    expect(second.done.report_id).toBe(first.done.report_id);
    expect(second.done.replayed).toBe(true);
    expect(first.done.replayed).toBe(false);
    expect(second.pdf).toEqual(first.pdf);
    expect(await usage(o)).toEqual([-0.5]);
  });

  it("a client that leaves right after the headers never got the PDF: the report is refunded in full", async () => {
    const o = await org(5);
    const res = await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points() });
    expect(res.status).toBe(200);
    const reportId = res.headers.get("x-report-id") ?? "";
    await res.body?.cancel();
    const job = await until(
      "settlement",
      () => withDb((db) => findJob(db, reportId)),
      (j) => j?.status === "settled",
    );
    expect(job).toMatchObject({ unitsDone: 0, refunded: 0.5, settledBy: "request" });
    const state = await ledger(o);
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 5],
      ["usage", -0.5],
      ["refund", 0.5],
    ]);
    expect(state.sum).toBe(state.cached);
  });

  it("a client that leaves after the first progress event is refunded in full within a minute", async () => {
    const o = await org(5);
    const res = await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points() });
    const reportId = res.headers.get("x-report-id") ?? "";
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("event: progress")) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    const job = await until(
      "settlement",
      () => withDb((db) => findJob(db, reportId)),
      (j) => j?.status === "settled",
      60_000,
    );
    expect(job).toMatchObject({ unitsDone: 0, refunded: 0.5 });
    const state = await ledger(o);
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 5],
      ["usage", -0.5],
      ["refund", 0.5],
    ]);
    expect(state.cached).toBe(5);
  });

  it("the same key with a different request is new work and is charged", async () => {
    const o = await org(5);
    const key = crypto.randomUUID();
    await reportEvents(await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points() }, key));
    await reportEvents(
      await generate(o.users.owner.token, { scores: sites, parcel_geojsons: points(), top_n: 2 }, key),
    );
    expect(await usage(o)).toEqual([-0.5, -0.5]);
  });

  it("a failure after the charge is refunded in full and ends the stream with an error event", async () => {
    const o = await org(5);
    const request = ReportGenerateRequestSchema.parse({ scores: sites, parcel_geojsons: points() });
    const text = await withDb(async (db) => {
      const packs = await loadPublicPacks(env.PACKS, "public/");
      const work = await reserve(testPayer(db, o), {
        action: "report",
        units: 1,
        description: "Feasibility report (PDF)",
      });
      const job = {
        request,
        packs: fixedScope(packs),
        organisation: "Test",
        date: "2026-07-01",
        digest: "0".repeat(64),
        work,
      };
      // The renderer cannot be loaded: the failure comes after sites were resolved and progress was sent.
      const events = generateReport(job, async () => {
        throw new Error("renderer unavailable");
      });
      const res = sseResponse(events, { onError: reportErrorEvent });
      return res.text();
    });
    const evs = parseSse(text);
    expect(evs.filter((e) => e.event === "progress").length).toBeGreaterThan(5);
    expect(evs.at(-1)).toEqual({
      event: "error",
      data: {
        detail: "Internal server error: the report could not be generated; the 0.5 credits charged were refunded",
      },
    });
    const state = await ledger(o);
    expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 5],
      ["usage", -0.5],
      ["refund", 0.5],
    ]);
    expect(state.cached).toBe(5);
    expect(state.sum).toBe(5);
  });
});

describe("refusals before charging", () => {
  it("an unknown pack_id: 404, nothing charged", async () => {
    const o = await org(5);
    const res = await generate(o.users.owner.token, {
      scores: sites,
      parcel_geojsons: points(),
      pack_id: "no-such-pack",
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Pack not found: no-such-pack" });
    expect(await usage(o)).toEqual([]);
  });

  it("pack_id limits the report to that pack, and the PDF lists only it", async () => {
    const o = await org(5);
    const r = await reportEvents(
      await generate(o.users.owner.token, {
        scores: sites,
        parcel_geojsons: points(),
        pack_id: "sydney-demo",
        top_n: 1,
      }),
    );
    const texts = await pdfPageTexts(r.pdf);
    expect(texts[0]).toContain("sydney-demo 2.0.0");
    expect(texts.join("\n")).not.toContain("sydney-suburbs");
  });

  it("a user without an organisation: 404 saying to call post-signup", async () => {
    const res = await generate(await mintToken(), { scores: sites, parcel_geojsons: points() });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "No organisation for this user: call POST /auth/post-signup first" });
  });

  it("the database unreachable: 503 Billing service unavailable", async () => {
    const o = await org(5);
    const res = await createApp().fetch(
      new Request("https://api.test/report/generate", {
        method: "POST",
        headers: { Authorization: `Bearer ${o.users.owner.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ scores: sites, parcel_geojsons: points() }),
      }),
      { ...env, ...databaseDown(env) },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Billing service unavailable" });
    expect((await ledger(o)).cached).toBe(5);
  });

  it("no token: 401 (the shared auth suite covers the rest)", async () => {
    const res = await SELF.fetch("https://api.test/report/generate", { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
  });
});
