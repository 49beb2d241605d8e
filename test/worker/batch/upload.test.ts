// POST /batch/upload through the real app: parsing, credits, stream order and content.
import { fixedScope } from "../../../src/packs/scope.ts";
import { SELF, createExecutionContext, env } from "cloudflare:test";
import { createApp } from "../../../src/app.ts";
import { mintToken } from "../../support/tokens.ts";
import { beforeAll, describe, expect, it } from "vitest";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import eppingLots from "../../../test/fixtures/demo-examples/epping-lots.csv?raw";
import mixed from "../../../test/fixtures/demo-examples/mixed-problems.csv?raw";
import rows50 from "../../fixtures/csv/rows-50.csv?raw";
import rows51 from "../../fixtures/csv/rows-51.csv?raw";
import headerOnly from "../../fixtures/csv/header-only.csv?raw";
import noLocation from "../../fixtures/csv/no-location.csv?raw";
import excel from "../../fixtures/csv/excel-bom-crlf.csv?raw";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse, type ParsedEvent } from "../../support/sse.ts";
import { createTeamOrg, ledgerState, testPayer, withDb, type TestOrg } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";
import { databaseDown } from "../helpers/faults.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

async function events(res: Response): Promise<ParsedEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  return parseSse(await res.text());
}

const dataRows = (csv: string) => csv.trim().split(/\r?\n/).length - 1;

async function org(credits: number): Promise<TestOrg> {
  return withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
}

async function balanceOf(o: TestOrg) {
  return withDb((db) => ledgerState(db, o.orgId));
}

describe("a clean lat/lon batch", () => {
  let o: TestOrg;
  let evs: ParsedEvent[];
  const n = dataRows(newtown);

  beforeAll(async () => {
    o = await org(10);
    evs = await events(await upload(o.users.member.token, newtown));
  });

  it("starts with batch_start, then one site_result per row in input order, then batch_complete", () => {
    expect(evs[0]?.event).toBe("batch_start");
    expect(evs[0]?.data).toMatchObject({ mode: "latlon", rows: n, cost: n / 10 });
    const sites = evs.slice(1, -1);
    expect(sites.map((e) => e.event)).toEqual(Array(n).fill("site_result"));
    expect(sites.map((e) => (e.data as { index: number }).index)).toEqual([...Array(n).keys()]);
    expect(evs.at(-1)).toMatchObject({
      event: "batch_complete",
      data: { scored: n, failed: 0, charged: n / 10, refunded: 0 },
    });
  });

  it("each site_result is self-contained: input echo, parcel, GeoJSON, score, rating, components, reasons, demo data", () => {
    const site = evs[1]?.data as Record<string, unknown> & {
      parcel: Record<string, unknown>;
      input: Record<string, string>;
      reasons: string[];
    };
    expect(site.input.site_name).toBe("Newtown site 1");
    expect(site.parcel.lot_id).toMatch(/\/\/DP\d+/);
    expect(site.parcel.area_m2).toBeGreaterThan(50);
    expect(site.parcel.geojson).toMatchObject({
      type: "Feature",
      geometry: { type: expect.stringMatching(/Polygon/) },
    });
    expect(site.score).toBeGreaterThanOrEqual(0);
    expect(site.score).toBeLessThanOrEqual(100);
    expect(["high", "medium", "low"]).toContain(site.rating);
    expect((site.components as unknown[]).length).toBeGreaterThan(0);
    expect(site.demo_data).toBe(true);
    expect(site.reasons.join(" ").toLowerCase()).toContain("demo data");
  });

  it("charges exactly 0.1 per row in one usage entry and the ledger balances", async () => {
    const state = await balanceOf(o);
    expect(state.cached).toBeCloseTo(10 - n / 10, 10);
    expect(state.sum).toBeCloseTo(state.cached, 10);
    expect(state.entries.filter((e) => e.type === "usage").map((e) => e.amount)).toEqual([-n / 10]);
    expect(evs.at(-1)?.data).toMatchObject({ balance: state.cached });
  });
});

describe("rows that cannot be scored", () => {
  it("are reported with a useful message and refunded in one refund entry", async () => {
    const o = await org(5);
    const evs = await events(await upload(o.users.owner.token, mixed));
    const errors = evs.filter((e) => e.event === "site_error").map((e) => e.data as { index: number; detail: string });
    const results = evs.filter((e) => e.event === "site_result");
    const details = errors.map((e) => e.detail.toLowerCase()).join(" | ");
    expect(details).toContain("swapped");
    expect(details).toContain("outside every data pack");
    expect(details).toContain("not a number");
    expect(details).toContain("no parcel");
    const n = dataRows(mixed);
    expect(results.length + errors.length).toBe(n);
    const done = evs.at(-1)?.data as { refunded: number; charged: number; failed: number };
    expect(done.failed).toBe(errors.length);
    expect(done.refunded).toBeCloseTo(errors.length / 10, 10);
    const state = await balanceOf(o);
    expect(state.entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([done.refunded]);
    // The refund says why: these rows were read and could not be scored, not lost on the way.
    const refund = state.entries.find((e) => e.type === "refund");
    expect(refund?.description).toBe(
      `Refund for ${errors.length} sites: ${errors.length} rows could not be scored (the batch's row errors say why)`,
    );
    expect(state.cached).toBeCloseTo(5 - results.length / 10, 10);
  });
});

describe("lot_number files", () => {
  it("are detected and scored by lot", async () => {
    const o = await org(5);
    const evs = await events(await upload(o.users.owner.token, eppingLots));
    expect(evs[0]?.data).toMatchObject({ mode: "lot" });
    const results = evs.filter((e) => e.event === "site_result");
    expect(results.length).toBe(dataRows(eppingLots));
  });
});

describe("refusals charge nothing", () => {
  let o: TestOrg;
  beforeAll(async () => {
    o = await org(10);
  });
  const expectUncharged = async () => expect((await balanceOf(o)).cached).toBe(10);

  it("51 rows: 400 saying the limit", async () => {
    const res = await upload(o.users.owner.token, rows51);
    expect(res.status).toBe(400);
    expect((await res.json<{ detail: string }>()).detail).toMatch(/51.*50/);
    await expectUncharged();
  });

  it("only a header: 400", async () => {
    const res = await upload(o.users.owner.token, headerOnly);
    expect(res.status).toBe(400);
    expect((await res.json<{ detail: string }>()).detail.toLowerCase()).toContain("no data rows");
    await expectUncharged();
  });

  it("an empty file: 400", async () => {
    const res = await upload(o.users.owner.token, "");
    expect(res.status).toBe(400);
    await expectUncharged();
  });

  it("no recognisable columns: 400 naming what is accepted", async () => {
    const res = await upload(o.users.owner.token, noLocation);
    expect(res.status).toBe(400);
    const { detail } = await res.json<{ detail: string }>();
    expect(detail).toContain("lot_number");
    expect(detail.toLowerCase()).toContain("latitude");
    await expectUncharged();
  });

  it("a zip file: 400", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 1, 2, 3, 4, 5, 6]);
    const res = await upload(o.users.owner.token, zip, { name: "sites.zip", type: "application/zip" });
    expect(res.status).toBe(400);
    expect((await res.json<{ detail: string }>()).detail.toLowerCase()).toContain("zip");
    await expectUncharged();
  });

  it("over 1 MiB: 413 before parsing", async () => {
    const big = `latitude,longitude\n${"-33.9,151.18\n".repeat(90_000)}`;
    const res = await upload(o.users.owner.token, big);
    expect(res.status).toBe(413);
    expect((await res.json<{ detail: string }>()).detail).toContain("1 MiB");
    await expectUncharged();
  });

  it("an unknown pack_id: 404", async () => {
    const res = await upload(o.users.owner.token, newtown, { packId: "no-such-pack" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Pack not found: no-such-pack" });
    await expectUncharged();
  });

  it("no file field: 422 at body.file", async () => {
    const form = new FormData();
    form.set("pack_id", "");
    const res = await SELF.fetch("https://api.test/batch/upload", {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${o.users.owner.token}` },
    });
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: string[]; type: string }[] }>();
    expect(body.detail[0]).toMatchObject({ loc: ["body", "file"], type: "missing" });
    await expectUncharged();
  });
});

describe("credits", () => {
  it("short balance: 402 with required, available and deficit, nothing charged", async () => {
    const o = await org(0.5);
    const res = await upload(o.users.owner.token, rows50);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 5, available: 0.5, deficit: 4.5 },
    });
    expect((await balanceOf(o)).cached).toBe(0.5);
  });

  it("exactly 50 rows are accepted and cost 5 credits", async () => {
    const o = await org(5);
    const evs = await events(await upload(o.users.owner.token, rows50));
    expect(evs[0]?.data).toMatchObject({ rows: 50, cost: 5 });
    const done = evs.at(-1)?.data as { charged: number; refunded: number; scored: number };
    expect(done.charged).toBe(5);
    expect((await balanceOf(o)).cached).toBeCloseTo(5 - done.scored / 10, 10);
  });

  it("the same Idempotency-Key twice charges once", async () => {
    const o = await org(5);
    const key = crypto.randomUUID();
    const first = await events(await upload(o.users.owner.token, newtown, { key }));
    const second = await events(await upload(o.users.owner.token, newtown, { key }));
    // biome-ignore lint/correctness/noUnsafeOptionalChaining: a missing event should fail the test with a TypeError.
    expect((second[0]?.data as { batch_id: string }).batch_id).toBe((first[0]?.data as { batch_id: string }).batch_id);
    expect(second[0]?.data).toMatchObject({ replayed: true });
    const state = await balanceOf(o);
    expect(state.entries.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(state.cached).toBeCloseTo(5 - dataRows(newtown) / 10, 10);
  });
});

describe("who may upload", () => {
  it("a user without an organisation: 404 saying to call post-signup, nothing charged anywhere", async () => {
    const res = await upload(await mintToken(), newtown);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "No organisation for this user: call POST /auth/post-signup first" });
  });

  it("the database unreachable: 503 Billing service unavailable", async () => {
    const o = await org(5);
    const form = new FormData();
    form.set("file", new File([newtown], "sites.csv", { type: "text/csv" }));
    const res = await createApp().fetch(
      new Request("https://api.test/batch/upload", {
        method: "POST",
        body: form,
        headers: { Authorization: `Bearer ${o.users.owner.token}` },
      }),
      { ...env, ...databaseDown(env) },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Billing service unavailable" });
    expect((await balanceOf(o)).cached).toBe(5);
  });
});

describe("idempotency keys cover the file", () => {
  it("the same key with a different file is new work and is charged", async () => {
    const o = await org(5);
    const key = crypto.randomUUID();
    await events(await upload(o.users.owner.token, newtown, { key }));
    await events(await upload(o.users.owner.token, eppingLots, { key }));
    const usage = (await balanceOf(o)).entries.filter((e) => e.type === "usage").map((e) => e.amount);
    expect(usage).toEqual([-dataRows(newtown) / 10, -dataRows(eppingLots) / 10]);
  });
});

describe("streaming", () => {
  it("the first event reaches the client on its own, before the batch completes", async () => {
    const o = await org(5);
    const res = await upload(o.users.owner.token, newtown);
    expect(res.headers.get("content-encoding")).toBe("identity");
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: batch_start");
    expect(first).not.toContain("batch_complete");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain("event: batch_complete");
  });

  it("an Excel export with BOM and CRLF is parsed", async () => {
    const o = await org(5);
    const evs = await events(await upload(o.users.owner.token, excel));
    expect(evs[0]?.event).toBe("batch_start");
    expect(evs.at(-1)?.event).toBe("batch_complete");
  });
});

describe("settling credits when a batch does not run to the end", () => {
  it("a client that disconnects after the first event: the work stops and every row it did not take is refunded in one entry", async () => {
    const o = await org(5);
    const res = await upload(o.users.owner.token, mixed);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    let refunds: number[] = [];
    for (let i = 0; i < 50 && refunds.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      refunds = (await balanceOf(o)).entries.filter((e) => e.type === "refund").map((e) => e.amount);
    }
    expect(refunds).toHaveLength(1);
    const state = await balanceOf(o);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });

  it("a failure mid-batch refunds every row not delivered, once, and the error event says so only after it is written", async () => {
    const { runBatch, chargeBatch } = await import("../../../src/batch/run.ts");
    const { parseSitesCsv } = await import("../../../src/batch/csv.ts");
    const { loadPublicPacks } = await import("../../../src/packs/registry.ts");
    const { env } = await import("cloudflare:workers");
    const parsed = parseSitesCsv(newtown);
    if (!parsed.ok) throw new Error(parsed.detail);
    const o = await org(5);
    await withDb(async (db) => {
      const ctx = { payer: testPayer(db, o), packs: fixedScope(await loadPublicPacks(env.PACKS, "public/")) };
      const charged = await chargeBatch(ctx, parsed, `test:${crypto.randomUUID()}`);
      const gen = runBatch(ctx, parsed, charged);
      expect((await gen.next()).value?.event).toBe("batch_start");
      expect((await gen.next()).value?.event).toBe("site_result");
      // Asking for the next event is the client taking this result; the failure comes with the second.
      expect((await gen.next()).value?.event).toBe("site_result");
      const failed = await gen.throw(new Error("storage failed"));
      expect(failed.value).toMatchObject({ event: "error" });
      expect((failed.value?.data as { detail: string } | undefined)?.detail).toContain("were refunded (0.9 credits)");
      expect((await gen.next()).done).toBe(true);
    });
    const state = await balanceOf(o);
    const n = parsed.rows.length;
    expect(state.entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([(n - 1) / 10]);
    expect(state.cached).toBeCloseTo(5 - 0.1, 10);
  });
});
