// The chat keeps the thread (issue 38): a scripted conversation on the embedded offline planner, through the real
// route, each lot-finding answer checked against POST /sites/search with the filters the conversation implies.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, withDb, type TestOrg } from "../helpers/billing.ts";
import { answerOf, ofType } from "../helpers/chat.ts";
import { approvalIn } from "./approvals.ts";

// No provider configured: the embedded offline planner answers.
const offlineEnv = { ...env, LLM_API_URL: "", LLM_API_KEY: "", LLM_MODEL: "" };

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 50, idpUsers: false }));
});

async function call(path: string, body: unknown): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`https://api.test${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${org.users.member.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    offlineEnv,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(text, { status: res.status, headers: res.headers });
}

let sessionId: string | null = null;
async function turn(question: string, extra: Record<string, unknown> = {}) {
  const res = await call("/chat", { question, session_id: sessionId, ...extra });
  expect(res.status).toBe(200);
  const a = await answerOf(res);
  sessionId = a.sessionId;
  return a;
}

type Search = { count: number; results: { lot_id: string | null; area_m2: number; zone: string | null }[] };
async function search(body: Record<string, unknown>): Promise<Search> {
  const res = await call("/sites/search", body);
  expect(res.status).toBe(200);
  return (await res.json()) as Search;
}

const lotsOf = (a: Awaited<ReturnType<typeof turn>>) => (a.parcels?.features ?? []).map((f) => f.id);
const EPPING_R2 = { area: { suburb: "Epping" }, filters: { zones: ["R2"], area_m2: { min: 600 } } };
const EPPING_R2_800 = { area: { suburb: "Epping" }, filters: { zones: ["R2"], area_m2: { min: 800 } } };
const VIEW = [151.0815, -33.776, 151.0845, -33.773];

describe("a conversation that keeps the thread (offline planner)", () => {
  it("0: 'those' before anything was found says plainly what it would need, runs no tool", async () => {
    const a = await turn("Which of those is closest to the station?");
    expect(a.calls).toEqual([]);
    expect(a.text).toContain("I cannot tell which lots you mean: nothing has been found in this conversation yet.");
    expect(a.text).not.toContain("Which area do you mean?");
  });

  it("1: R2 lots over 600 m2 in Epping are the lots the site search finds", async () => {
    const a = await turn("Show me R2 lots over 600 m2 in Epping");
    expect(a.calls[0]).toMatchObject({
      toolName: "find_parcels",
      input: { suburb: "Epping", zones: ["R2"], min_area_m2: 600 },
    });
    const api = await search({ ...EPPING_R2, sort: "area", limit: 50 });
    expect(a.output.matched).toBe(api.count);
    expect(lotsOf(a)).toEqual(api.results.map((r) => r.lot_id));
  });

  it("2: 'now only the ones over 800 m2' keeps Epping and R2 and raises the area", async () => {
    const a = await turn("Now only the ones over 800 m2");
    expect(a.calls[0]).toMatchObject({
      toolName: "find_parcels",
      input: { suburb: "Epping", zones: ["R2"], min_area_m2: 800 },
    });
    const api = await search({ ...EPPING_R2_800, sort: "area", limit: 50 });
    expect(api.count).toBeGreaterThan(0);
    expect(a.output.matched).toBe(api.count);
    expect(lotsOf(a)).toEqual(api.results.map((r) => r.lot_id));
    expect(api.results.filter((r) => r.zone !== "R2" || r.area_m2 < 800)).toEqual([]);
  });

  it("3: 'which of those is closest to the station?' answers with the nearest of those lots", async () => {
    const a = await turn("Which of those is closest to the station?");
    expect(a.calls[0]).toMatchObject({
      toolName: "find_parcels",
      input: { suburb: "Epping", zones: ["R2"], min_area_m2: 800, sort: "station", limit: 1 },
    });
    const api = await search({ ...EPPING_R2_800, sort: "station", limit: 1 });
    expect(lotsOf(a)).toEqual([api.results[0]?.lot_id]);
    expect(a.text).toContain(`the closest to a station is ${api.results[0]?.lot_id}`);
    expect(a.text).not.toContain("Which area do you mean?");
  });

  it("4: 'score the largest one' asks to score the largest of those lots, and scores it once approved", async () => {
    const a = await turn("Score the largest one");
    const api = await search({ ...EPPING_R2_800, sort: "area", limit: 1 });
    expect(a.calls[0]).toMatchObject({ toolName: "score_sites", input: { lot_ids: [api.results[0]?.lot_id] } });
    const request = approvalIn(a.chunks);
    expect(request?.sites.map((s) => s.lot_id)).toEqual([api.results[0]?.lot_id]);
    const res = await call("/chat", { session_id: sessionId, approval: { id: request?.id, approved: true } });
    const scored = await answerOf(res);
    const out = scored.output as { scored: { lot_id: string }[]; charged: number };
    expect(out.scored.map((s) => s.lot_id)).toEqual([api.results[0]?.lot_id]);
    expect(out.charged).toBe(request?.cost);
  });

  it("5: 'is there any heritage in view?' looks at the map's view, not the previous place", async () => {
    const a = await turn("Is there any heritage in view?", { viewport_bbox: VIEW });
    expect(a.calls[0]).toMatchObject({ toolName: "summarise_area", input: { bbox: VIEW } });
    expect(a.text).toMatch(/heritage item or area/);
    expect(a.text).not.toMatch(/^Epping, NSW has/);
    expect(ofType(a.chunks, "tool-input-available")).toHaveLength(1);
  });

  it("6: after the view, 'those' still means the conversation's lots: R2 over 800 m2 in Epping, under 1000 m2 now", async () => {
    const a = await turn("Only those under 1000 m2");
    expect(a.calls[0]).toMatchObject({
      toolName: "find_parcels",
      input: { suburb: "Epping", zones: ["R2"], min_area_m2: 800, max_area_m2: 1000 },
    });
    const api = await search({
      area: { suburb: "Epping" },
      filters: { zones: ["R2"], area_m2: { min: 800, max: 1000 } },
      sort: "area",
      limit: 50,
    });
    expect(a.output.matched).toBe(api.count);
    expect(lotsOf(a)).toEqual(api.results.map((r) => r.lot_id));
  });
});
