// Chat approval (docs/design.md section 5): a scoring call that charges beyond the question asks first. The stream
// carries the request (sites and cost) and charges nothing for them; approving charges exactly that cost, declining
// nothing more; a request is answered once, only in its own session, and not after it expired.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DECLINED_REASON } from "../../../src/chat/approval.ts";
import { sessionStub } from "../../../src/chat/session.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { addMember, call, createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask, type Chunk, chunksOf, modelRequests, newMarker, ofType, script, textOf } from "../helpers/chat.ts";
import { until } from "../helpers/wait.ts";
import { answer, approvalIn } from "./approvals.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const LOTS = ["22//DP1639151", "18/DP1082997", "Lot 24 DP 1293293"];
const newOrg = (credits: number) => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
const ledger = (o: TestOrg) => withDb((db) => ledgerState(db, o.orgId));
const usage = async (o: TestOrg) =>
  (await ledger(o)).entries.filter((e) => e.type !== "adjustment").map((e) => [e.type, e.action_type, e.amount]);

async function apiBalance(o: TestOrg): Promise<number> {
  const res = await call("/billing/credits/balance", { token: o.users.member.token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { balance: number }).balance;
}

/** A question whose scripted model asks to score LOTS, then answers; it stops at the approval request. */
async function askToScore(o: TestOrg, answerText = "Scored the three lots.") {
  const marker = newMarker();
  await script(marker, [
    { tool_calls: [{ id: "call_score", name: "score_sites", arguments: { lot_ids: LOTS } }] },
    { text: answerText },
  ]);
  const res = await ask(o.users.member.token, { question: `Score these lots [[${marker}]]` });
  const sessionId = res.headers.get("x-session-id") as string;
  const chunks = await chunksOf(res);
  const request = approvalIn(chunks);
  if (!request) throw new Error("the stream carried no approval request");
  return { marker, sessionId, chunks, request };
}

const scoredOutput = (chunks: Chunk[]) =>
  ofType(chunks, "tool-output-available")[0]?.output as { charged: number; balance: number; scored: unknown[] };

describe("a scoring call asks first", () => {
  it("the stream carries the request with the sites and the cost, ends without error, and charges only the question", async () => {
    const o = await newOrg(5);
    const { chunks, request, marker } = await askToScore(o);
    expect(request.units).toBe(3);
    expect(request.cost).toBe(0.3);
    expect(request.sites.map((s) => s.lot_id)).toEqual(["22//DP1639151", "18//DP1082997", "24//DP1293293"]);
    expect(request.sites.every((s) => s.area_m2 > 0)).toBe(true);
    expect(ofType(chunks, "tool-input-available")[0]).toMatchObject({ toolName: "score_sites" });
    expect(ofType(chunks, "tool-output-available")).toEqual([]);
    expect(ofType(chunks, "error")).toEqual([]);
    expect(ofType(chunks, "finish")).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({ type: "[DONE]" });
    // The model was asked once; the call waits for the person.
    expect(await modelRequests(marker)).toHaveLength(1);
    expect(await usage(o)).toEqual([["usage", "chat", -0.05]]);
    expect(await apiBalance(o)).toBe(4.95);
  });
});

describe("approving", () => {
  it("runs the call, charges exactly the announced cost (not as a question), and the ledger and balance show it", async () => {
    const o = await newOrg(5);
    const { sessionId, request, marker, chunks: asked } = await askToScore(o);
    const res = await answer(o.users.member.token, sessionId, request.id, true);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-session-id")).toBe(sessionId);
    const chunks = await chunksOf(res);
    // The answer continues the message that asked, so a useChat client appends to it.
    expect(ofType(chunks, "start")[0]?.messageId).toBe(ofType(asked, "start")[0]?.messageId);
    // Not a question: no question charge is announced.
    expect(ofType(chunks, "data-credits")).toEqual([]);
    const out = scoredOutput(chunks);
    expect(out.scored).toHaveLength(request.units);
    expect(out.charged).toBe(request.cost);
    expect(ofType(chunks, "tool-output-available")[0]?.toolCallId).toBe(request.tool_call_id);
    expect(ofType(chunks, "data-parcels")).toHaveLength(1);
    expect(textOf(chunks)).toBe("Scored the three lots.");
    // The model read the scores as the call's result.
    const second = (await modelRequests(marker))[1];
    expect(second?.messages.find((m) => m.role === "tool")?.content).toContain('"scored"');
    expect(await usage(o)).toEqual([
      ["usage", "chat", -0.05],
      ["usage", "batch_score", -request.cost],
    ]);
    const state = await ledger(o);
    expect(state.sum).toBeCloseTo(state.cached, 10);
    expect(await apiBalance(o)).toBe(out.balance);
    expect(out.balance).toBeCloseTo(5 - 0.05 - request.cost, 10);
    // The scoring job settles as delivered once the stream has ended.
    const jobs = await until(
      "the scoring settlement",
      () =>
        withDb(
          async (db) =>
            (
              await db.execute<{ action: string; units: number; units_done: number; status: string }>(
                sql`select action, units, units_done, status from charged_jobs where org_id = ${o.orgId} and action = 'batch_score'`,
              )
            ).rows,
        ),
      (rows) => rows.every((r) => r.status === "settled"),
    );
    expect(jobs).toEqual([{ action: "batch_score", units: 3, units_done: 3, status: "settled" }]);
  });
});

describe("declining", () => {
  it("charges nothing more: the call does not run and the model hears it was declined", async () => {
    const o = await newOrg(5);
    const { sessionId, request, marker } = await askToScore(o, "Nothing was scored.");
    const chunks = await chunksOf(await answer(o.users.member.token, sessionId, request.id, false));
    expect(ofType(chunks, "tool-output-denied")).toEqual([
      { type: "tool-output-denied", toolCallId: request.tool_call_id },
    ]);
    expect(ofType(chunks, "tool-output-available")).toEqual([]);
    expect(ofType(chunks, "data-parcels")).toEqual([]);
    expect(textOf(chunks)).toBe("Nothing was scored.");
    const second = (await modelRequests(marker))[1];
    expect(second?.messages.find((m) => m.role === "tool")?.content).toBe(DECLINED_REASON);
    expect(await usage(o)).toEqual([["usage", "chat", -0.05]]);
    expect(await apiBalance(o)).toBe(4.95);
  });

  it("the conversation goes on: a later question in the session is answered as usual", async () => {
    const o = await newOrg(5);
    const { sessionId, request } = await askToScore(o, "Nothing was scored.");
    await chunksOf(await answer(o.users.member.token, sessionId, request.id, false));
    const marker = newMarker();
    await script(marker, [{ text: "Still here." }]);
    const next = await chunksOf(
      await ask(o.users.member.token, { question: `Anything else? [[${marker}]]`, session_id: sessionId }),
    );
    expect(textOf(next)).toBe("Still here.");
  });
});

describe("answers that are refused", () => {
  it("a request answered twice: 409 with a sentence, and the second answer charges nothing", async () => {
    const o = await newOrg(5);
    const { sessionId, request } = await askToScore(o);
    await chunksOf(await answer(o.users.member.token, sessionId, request.id, true));
    const before = await usage(o);
    for (const approved of [true, false]) {
      const again = await answer(o.users.member.token, sessionId, request.id, approved);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        detail: `Approval request ${request.id} was already approved; each request is answered once. Ask again to score more.`,
      });
    }
    expect(await usage(o)).toEqual(before);
  });

  it("another user's or another organisation's answer is 404 Not found, and the request still waits for its owner", async () => {
    const o = await newOrg(5);
    const other = await newOrg(5);
    const colleague = await withDb((db) => addMember(db, o.orgId, "member", { idpUser: false }));
    const { sessionId, request } = await askToScore(o);
    for (const token of [other.users.member.token, colleague.token]) {
      const res = await answer(token, sessionId, request.id, true);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found" });
    }
    expect(await usage(o)).toEqual([["usage", "chat", -0.05]]);
    expect(await usage(other)).toEqual([]);
    const own = await chunksOf(await answer(o.users.member.token, sessionId, request.id, true));
    expect(scoredOutput(own).charged).toBe(request.cost);
  });

  it("an id the session never asked is 404 with a sentence", async () => {
    const o = await newOrg(5);
    const { sessionId } = await askToScore(o);
    const res = await answer(o.users.member.token, sessionId, "aitxt-not-asked", true);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      detail: "No approval request aitxt-not-asked is waiting in this chat session.",
    });
  });

  it("a request left waiting when a new question is asked expires: 409, nothing charged, and the question is answered", async () => {
    const o = await newOrg(5);
    const { sessionId, request } = await askToScore(o);
    const marker = newMarker();
    await script(marker, [{ text: "Here is something else." }]);
    const next = await chunksOf(
      await ask(o.users.member.token, { question: `Something else [[${marker}]]`, session_id: sessionId }),
    );
    expect(textOf(next)).toBe("Here is something else.");
    // The model read the waiting call as not run, not as a broken conversation.
    const [seen] = await modelRequests(marker);
    expect(seen?.messages.find((m) => m.role === "tool")?.content).toMatch(/^Not run/);
    const res = await answer(o.users.member.token, sessionId, request.id, true);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expired: a later question was asked/);
    expect(await usage(o)).toEqual([
      ["usage", "chat", -0.05],
      ["usage", "chat", -0.05],
    ]);
  });

  it("a request whose session expired is 404 Not found and charges nothing", async () => {
    const o = await newOrg(5);
    const { sessionId, request } = await askToScore(o);
    expect(await runDurableObjectAlarm(sessionStub(env.CHAT_SESSIONS, o.orgId, sessionId))).toBe(true);
    const res = await answer(o.users.member.token, sessionId, request.id, true);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
    expect(await usage(o)).toEqual([["usage", "chat", -0.05]]);
  });

  it("an approval without a session, or with a question too, is 422 naming the field", async () => {
    const o = await newOrg(5);
    const noSession = await ask(o.users.member.token, { approval: { id: "x", approved: true } });
    expect(noSession.status).toBe(422);
    expect(JSON.stringify(await noSession.json())).toContain("session_id");
    const both = await ask(o.users.member.token, {
      question: "Score",
      session_id: crypto.randomUUID(),
      approval: { id: "x", approved: true },
    });
    expect(both.status).toBe(422);
    expect(JSON.stringify(await both.json())).toContain("either a question or an approval");
    const neither = await ask(o.users.member.token, { session_id: crypto.randomUUID() });
    expect(neither.status).toBe(422);
    expect(await usage(o)).toEqual([]);
  });
});
