// What one question may cost: a scripted model that keeps scoring is stopped at the site bound (at most
// 0.05 + 5 credits), a site is never charged twice, tool calls are capped, and work the client never took is refunded.
import { beforeAll, describe, expect, it } from "vitest";
import { QUESTION_BOUNDS } from "../../../src/chat/budget.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { until } from "../helpers/wait.ts";
import { ask, chunksOf, modelRequests, newMarker, ofType, script, textOf } from "../helpers/chat.ts";
import { answer, approvalIn, askApproving } from "./approvals.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const newOrg = (credits: number) => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
const ledger = (o: TestOrg) => withDb((db) => ledgerState(db, o.orgId));
const scoreCall = (suburb: string) => ({ tool_calls: [{ name: "score_sites", arguments: { suburb, limit: 20 } }] });
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 10_000) / 10_000;

describe("a model that keeps scoring", () => {
  it("is stopped at 50 distinct sites across its approvals: at most 0.05 + 5 credits, repeats free, and the stream says which bound", async () => {
    const o = await newOrg(100);
    const marker = newMarker();
    const suburbs = [
      "Parramatta",
      "Parramatta",
      "Epping",
      "Newtown",
      "Chatswood",
      "Strathfield",
      "Parramatta",
      "Epping",
    ];
    await script(marker, [...suburbs.map(scoreCall), { text: "Here are the scores I found." }]);
    const { chunks, approvals } = await askApproving(o.users.member.token, {
      question: `Score everything [[${marker}]]`,
    });
    expect(textOf(chunks)).toContain("scores I found");
    // Each call with new sites asked first; repeats and calls past the site bound charge nothing and do not ask.
    expect(sum(approvals.map((a) => a.cost))).toBe(5);
    expect(approvals.map((a) => a.units)).toEqual([20, 20, 10]);
    // Eight scoring steps also spent the tool steps: the answer step was offered no tools.
    expect(ofType(chunks, "data-limit").map((c) => (c.data as { bound: string }).bound)).toEqual([
      "sites",
      "tool_steps",
    ]);
    const state = await ledger(o);
    const usage = state.entries.filter((e) => e.type === "usage");
    expect(usage.filter((e) => e.action_type === "chat").map((e) => e.amount)).toEqual([-0.05]);
    expect(sum(usage.filter((e) => e.action_type === "batch_score").map((e) => e.amount))).toBe(-5);
    expect(state.entries.filter((e) => e.type === "refund")).toEqual([]);
    expect(state.cached).toBeCloseTo(100 - 5.05, 10);
    expect(state.sum).toBeCloseTo(state.cached, 10);
  });

  it("a loop of tool calls ends after 8 tool steps with one more step for the answer, across its approval", async () => {
    const o = await newOrg(100);
    const marker = newMarker();
    await script(marker, [scoreCall("Parramatta")]);
    const { chunks, approvals } = await askApproving(o.users.member.token, {
      question: `Again and again [[${marker}]]`,
    });
    expect(approvals).toHaveLength(1);
    expect(await modelRequests(marker)).toHaveLength(QUESTION_BOUNDS.toolSteps + 1);
    const usage = (await ledger(o)).entries.filter((e) => e.type === "usage" && e.action_type === "batch_score");
    // The same 20 lots every time: charged once.
    expect(usage.map((e) => e.amount)).toEqual([-2]);
    expect(ofType(chunks, "data-limit").map((c) => (c.data as { bound: string }).bound)).toEqual(["tool_steps"]);
  });
});

describe("many tool calls in one step", () => {
  it("runs the first 16 and refuses the rest without doing their work", async () => {
    const o = await newOrg(10);
    const marker = newMarker();
    const calls = Array.from({ length: 20 }, () => ({ name: "summarise_area", arguments: { suburb: "Parramatta" } }));
    await script(marker, [{ tool_calls: calls }, { text: "Summarised." }]);
    const chunks = await chunksOf(await ask(o.users.member.token, { question: `Summaries [[${marker}]]` }));
    const outputs = ofType(chunks, "tool-output-available").map((c) => c.output as Record<string, unknown>);
    expect(outputs).toHaveLength(20);
    expect(outputs.filter((out) => "parcels" in out)).toHaveLength(QUESTION_BOUNDS.toolCalls);
    expect(outputs.filter((out) => typeof out.error === "string")).toHaveLength(20 - QUESTION_BOUNDS.toolCalls);
    expect(ofType(chunks, "data-limit").map((c) => (c.data as { bound: string }).bound)).toContain("tool_calls");
  });
});

describe("a client that leaves", () => {
  it("before an approved scoring result reached it: that scoring is refunded in full; the question stands, its approval request was delivered", async () => {
    const o = await newOrg(10);
    const marker = newMarker();
    await script(marker, [scoreCall("Parramatta"), { stall_ms: 3_000, text: "too late" }]);
    const asked = await ask(o.users.member.token, { question: `Score Parramatta [[${marker}]]` });
    const request = approvalIn(await chunksOf(asked));
    const res = await answer(o.users.member.token, asked.headers.get("x-session-id") as string, request!.id, true);
    const reader = res.body!.getReader();
    await reader.read();
    // The second model request means the tool ran and its charge was posted; then hang up.
    await until(
      "the scoring step",
      () => modelRequests(marker),
      (r) => r.length >= 2,
    );
    const charged = await ledger(o);
    expect(charged.entries.filter((e) => e.type === "usage").map((e) => e.amount)).toEqual([-0.05, -2]);
    await reader.cancel();
    const state = await until(
      "the refunds",
      () => ledger(o),
      (s) => s.entries.filter((e) => e.type === "refund").length === 1,
    );
    expect(state.entries.filter((e) => e.type === "refund").map((e) => [e.action_type, e.amount])).toEqual([
      ["batch_score", 2],
    ]);
    expect(state.cached).toBe(9.95);
  });
});
