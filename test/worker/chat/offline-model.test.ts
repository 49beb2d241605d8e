// The embedded offline planner (no LLM_* configured, no model server): POST /chat through the real app,
// each common question form reaching the right tool and map data, in the Worker alone.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { PLANNER_NOTICE } from "../../../src/chat/offline/planner.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { answerOf, modelRequests, newMarker, ofType, parseUiStream } from "../helpers/chat.ts";
import { approvalIn } from "./approvals.ts";

// The worker pool's bindings point at the local model server; this copy has no provider at all.
const offlineEnv = { ...env, LLM_API_URL: "", LLM_API_KEY: "", LLM_MODEL: "" };

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 50, idpUsers: false }));
});

async function post(body: Record<string, unknown>): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request("https://api.test/chat", {
      method: "POST",
      headers: { Authorization: `Bearer ${org.users.member.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    offlineEnv,
    ctx,
  );
  // Settlement and history run after the body ends; wait for them so the next turn sees this one.
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(text, { status: res.status, headers: res.headers });
}

async function question(body: Record<string, unknown>) {
  const res = await post(body);
  expect(res.status).toBe(200);
  return answerOf(res);
}

/** A question that stops at an approval request, and the stream that answering it opens. */
async function answered(body: Record<string, unknown>, approved: boolean) {
  const asked = await question(body);
  const request = approvalIn(asked.chunks);
  if (!request) throw new Error("no approval request");
  const res = await post({ session_id: asked.sessionId, approval: { id: request.id, approved } });
  expect(res.status).toBe(200);
  return { asked, request, ...(await answerOf(res)) };
}

describe("offline planner embedded in the Worker (no provider configured)", () => {
  it("answers instead of 503, saying once that it is the offline planner, read by the AI SDK's own reader", async () => {
    // The marker lets the local model server report whether this question reached it: it must not.
    const marker = newMarker();
    const res = await post({ question: `What is in Erskineville? [[${marker}]]` });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const chunks = parseUiStream(await res.text());
    const stream = new ReadableStream<UIMessageChunk>({
      start(c) {
        for (const chunk of chunks.filter((x) => x.type !== "[DONE]")) c.enqueue(chunk as unknown as UIMessageChunk);
        c.close();
      },
    });
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({ stream, terminateOnError: true })) message = m;
    const parts = message?.parts ?? [];
    expect(parts.some((p) => p.type === "tool-summarise_area")).toBe(true);
    expect(parts.some((p) => p.type === "data-overlays")).toBe(true);
    const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(text.startsWith(PLANNER_NOTICE)).toBe(true);
    expect(text.split(PLANNER_NOTICE).length).toBe(2);
    expect(text).toMatch(/Erskineville, NSW has \d+ parcels/);
    expect(await modelRequests(marker)).toEqual([]);
  });

  it("'Show me parcels over 150 m2 in Newtown' highlights only Newtown lots over 150 m², fewer than all", async () => {
    const q = await question({ question: "Show me parcels over 150 m2 in Newtown" });
    expect(q.calls.map((c) => c.toolName)).toEqual(["find_parcels"]);
    expect(q.calls[0]).toMatchObject({ input: { suburb: "Newtown", min_area_m2: 150 } });
    const [lo, hi] = q.output.area_range_m2 as [number, number];
    expect(lo).toBeLessThan(150);
    expect(hi).toBeGreaterThan(150);
    expect(q.output.matched as number).toBeLessThan(q.output.scanned as number);
    expect(q.parcels?.features.length).toBeGreaterThan(0);
    for (const f of q.parcels?.features ?? []) {
      expect(f.properties.area_m2).toBeGreaterThan(150);
      expect(f.properties.address).toMatch(/, Newtown NSW 2042$/);
    }
    expect(q.text).toContain(`I found ${q.output.matched} parcels in Newtown, NSW over 150 m²`);
    expect(ofType(q.chunks, "data-bbox")[0]).toMatchObject({ data: { label: "Newtown, NSW" } });
  });

  it("what is near a place: the suburb's summary with its transport", async () => {
    const q = await question({ question: "What is near Epping?" });
    expect(q.calls[0]).toMatchObject({ toolName: "summarise_area", input: { suburb: "Epping" } });
    expect(q.text).toMatch(/Epping, NSW has \d+ parcels/);
    expect(q.text).toMatch(/transport stop/);
  });

  it("zoning and hazards of a lot", async () => {
    const q = await question({ question: "What's the zoning and flood risk of Lot 24 DP 1293293?" });
    expect(q.calls[0]).toMatchObject({ toolName: "describe_parcel", input: { lot_id: "Lot 24 DP 1293293" } });
    const zones = q.output.zones as { code: string }[];
    expect(q.text).toContain(`zoned ${zones[0]?.code}`);
    expect(q.text).toMatch(/Flood: (none|\d+% of the lot)/);
    expect(q.parcels?.features.map((f) => f.id)).toEqual(["24//DP1293293"]);
  });

  it("'score the parcels in view' asks first, then scores the viewport's largest lots, charging the 0.1 each it announced", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const view = [151.0815, -33.776, 151.0845, -33.773];
    const q = await answered({ question: "Score the parcels in view", viewport_bbox: view }, true);
    expect(q.asked.calls[0]).toMatchObject({ toolName: "score_sites", input: { bbox: view, limit: 10 } });
    expect(q.asked.text).toBe("");
    const scored = q.output.scored as { score: number; lot_id: string; address: string }[];
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.map((x) => x.lot_id)).toEqual(q.request.sites.map((x) => x.lot_id));
    expect(q.parcels?.features.every((f) => typeof f.properties.score === "number")).toBe(true);
    expect(q.text).toContain(`${scored[0]?.lot_id} (${scored[0]?.address}): ${scored[0]?.score}/100`);
    const after = await withDb((db) => ledgerState(db, org.orgId));
    expect(after.entries.slice(before.entries.length).map((e) => e.amount)).toEqual([-0.05, -q.request.cost]);
    expect(q.request.cost).toBeCloseTo(scored.length / 10, 10);
  });

  it("declining the scoring: the planner says it did not run, and nothing more is charged", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const view = [151.0815, -33.776, 151.0845, -33.773];
    const q = await answered({ question: "Score the parcels in view", viewport_bbox: view }, false);
    expect(ofType(q.chunks, "tool-output-denied")).toHaveLength(1);
    expect(q.text).toContain("You declined the scoring, so it did not run and nothing more was charged.");
    const after = await withDb((db) => ledgerState(db, org.orgId));
    expect(after.entries.slice(before.entries.length).map((e) => e.amount)).toEqual([-0.05]);
  });

  it("a follow-up in the same session refers to the previous turn's place, without the notice again", async () => {
    const first = await question({ question: "Show me lots over 600 m2 in Epping" });
    expect(first.calls[0]).toMatchObject({ toolName: "find_parcels", input: { suburb: "Epping", min_area_m2: 600 } });
    const q = await question({ question: "What about flood risk there?", session_id: first.sessionId });
    expect(q.sessionId).toBe(first.sessionId);
    expect(q.calls[0]).toMatchObject({ toolName: "summarise_area", input: { suburb: "Epping" } });
    expect(q.text).not.toContain(PLANNER_NOTICE);
    expect(q.text).toMatch(/of parcels touch a flood planning area|no parcel touches a flood planning area/);
  });

  it("'score these' after a search scores the lots that search showed", async () => {
    const first = await question({ question: "Show me parcels over 600 m2 in Epping" });
    const shown = (first.output.parcels as { lot_id: string }[]).map((p) => p.lot_id);
    const q = await answered({ question: "Score these", session_id: first.sessionId }, true);
    expect(q.asked.calls[0]).toMatchObject({ toolName: "score_sites", input: { lot_ids: shown.slice(0, 10) } });
    expect((q.output.scored as unknown[]).length).toBe(Math.min(shown.length, 10));
  });
});
