// Failures inside the answer: each becomes one clear `error` part, the stream ends, and a question that
// got no answer is refunded. The model server misbehaves on script, speaking the real wire protocol.
import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { QUESTION_BOUNDS } from "../../../src/chat/budget.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import {
  ask,
  chunksOf,
  closedByClient,
  modelRequests,
  newMarker,
  ofType,
  script,
  textOf,
  type Chunk,
} from "../helpers/chat.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const newOrg = (credits = 1) => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
const ledger = (o: TestOrg) => withDb((db) => ledgerState(db, o.orgId));
const errorsOf = (chunks: Chunk[]) => ofType(chunks, "error").map((c) => c.errorText as string);

async function expectRefunded(o: TestOrg): Promise<void> {
  const state = await ledger(o);
  expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
    ["adjustment", 1],
    ["usage", -0.05],
    ["refund", 0.05],
  ]);
  expect(state.cached).toBe(1);
}

async function expectCharged(o: TestOrg): Promise<void> {
  const state = await ledger(o);
  expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
    ["adjustment", 1],
    ["usage", -0.05],
  ]);
  expect(state.cached).toBe(0.95);
}

async function askScripted(
  o: TestOrg,
  turns: Parameters<typeof script>[1],
): Promise<{ chunks: Chunk[]; marker: string }> {
  const marker = newMarker();
  await script(marker, turns);
  const chunks = await chunksOf(await ask(o.users.member.token, { question: `What is in Epping? [[${marker}]]` }));
  return { chunks, marker };
}

describe("provider failures", () => {
  it("a provider 500 is an error part naming the status and the provider's message; the stream ends; refunded", async () => {
    const o = await newOrg();
    const { chunks, marker } = await askScripted(o, [
      { status: 500, error: "The server had an error while processing your request." },
    ]);
    expect(errorsOf(chunks)).toEqual([
      "The language model service answered HTTP 500: The server had an error while processing your request. The question's credit is refunded.",
    ]);
    expect(chunks.at(-1)?.type).toBe("[DONE]");
    expect(ofType(chunks, "text-delta")).toEqual([]);
    // One retry, then it gives up.
    expect(await modelRequests(marker)).toHaveLength(2);
    await expectRefunded(o);
  });

  it("a wrong API key (401 from the provider) says so, and is refunded", async () => {
    const o = await newOrg();
    const res = await createApp().fetch(
      new Request("https://api.test/chat", {
        method: "POST",
        headers: { Authorization: `Bearer ${o.users.member.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: "What is in Epping?" }),
      }),
      { ...env, LLM_API_KEY: "not-the-key" },
      createExecutionContext(),
    );
    const chunks = await chunksOf(res);
    expect(errorsOf(chunks)).toEqual([
      "The language model service answered HTTP 401: Incorrect API key provided. The question's credit is refunded.",
    ]);
    await expectRefunded(o);
  });

  it("the connection dropping mid-stream before any answer is an error part, refunded", async () => {
    const o = await newOrg();
    const { chunks } = await askScripted(o, [
      { tool_calls: [{ name: "summarise_area", arguments: { suburb: "Epping" } }], break_after: 3, delay_ms: 30 },
    ]);
    expect(errorsOf(chunks)).toEqual([
      "The language model service could not be reached or broke off mid-answer. The question's credit is refunded.",
    ]);
    expect(chunks.at(-1)?.type).toBe("[DONE]");
    await expectRefunded(o);
  });

  it("the connection dropping after part of the answer keeps what was said and charges the question", async () => {
    const o = await newOrg();
    const { chunks } = await askScripted(o, [
      { text: "Epping has many lots and a metro station nearby", break_after: 4, delay_ms: 30 },
    ]);
    expect(textOf(chunks)).toBe("Epping has many ");
    expect(errorsOf(chunks)).toEqual(["The language model service could not be reached or broke off mid-answer."]);
    await expectCharged(o);
  });

  it("an error event inside the provider's stream is passed on, refunded", async () => {
    const o = await newOrg();
    const { chunks } = await askScripted(o, [{ error_event: "The model is overloaded" }]);
    expect(errorsOf(chunks)).toEqual([
      "The language model service reported an error: The model is overloaded The question's credit is refunded.",
    ]);
    await expectRefunded(o);
  });

  it("a model slower than LLM_TIMEOUT_MS is cut off with an error part, not a hang; refunded", async () => {
    const o = await newOrg();
    const marker = newMarker();
    await script(marker, [{ stall_ms: 5_000, text: "too late" }]);
    const started = Date.now();
    const res = await createApp().fetch(
      new Request("https://api.test/chat", {
        method: "POST",
        headers: { Authorization: `Bearer ${o.users.member.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: `Epping? [[${marker}]]` }),
      }),
      { ...env, LLM_TIMEOUT_MS: "500" },
      createExecutionContext(),
    );
    const chunks = await chunksOf(res);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(errorsOf(chunks)).toEqual([
      "The language model did not finish within 0.5 s. The question's credit is refunded.",
    ]);
    expect(chunks.at(-1)?.type).toBe("[DONE]");
    await expectRefunded(o);
  });
});

describe("tool calls the model gets wrong", () => {
  it("malformed JSON arguments become a tool-input-error the model sees, and it can still answer", async () => {
    const o = await newOrg();
    const { chunks, marker } = await askScripted(o, [
      { tool_calls: [{ id: "call_bad", name: "find_parcels", arguments: '{"suburb": ' }] },
      { text: "Sorry, let me try again later." },
    ]);
    const [bad] = ofType(chunks, "tool-input-error");
    expect(bad).toMatchObject({ toolCallId: "call_bad", toolName: "find_parcels" });
    expect(bad?.errorText).toContain("Invalid input for tool find_parcels");
    expect(textOf(chunks)).toBe("Sorry, let me try again later.");
    expect(chunks.at(-2)?.type).toBe("finish");
    const [, second] = await modelRequests(marker);
    expect(second?.messages.find((m) => m.role === "tool")?.content).toContain("Invalid input for tool find_parcels");
    await expectCharged(o);
  });

  it("arguments of the wrong type and an unknown tool are refused the same way", async () => {
    const o = await newOrg();
    const { chunks } = await askScripted(o, [
      {
        tool_calls: [
          { id: "c1", name: "find_parcels", arguments: { suburb: "Epping", min_area_m2: "big" } },
          { id: "c2", name: "drop_database", arguments: {} },
        ],
      },
      { text: "Those calls failed." },
    ]);
    const errs = ofType(chunks, "tool-input-error");
    expect(errs.map((e) => e.toolCallId).sort()).toEqual(["c1", "c2"]);
    expect(errs.find((e) => e.toolCallId === "c2")?.errorText).toContain("drop_database");
    expect(ofType(chunks, "data-parcels")).toEqual([]);
  });

  it("a model that only ever calls tools is stopped at the tool-step bound, told so, and refunded", async () => {
    const o = await newOrg();
    const { chunks, marker } = await askScripted(o, [
      { tool_calls: [{ name: "geocode_suburb", arguments: { suburb: "Epping" } }] },
    ]);
    expect(await modelRequests(marker)).toHaveLength(QUESTION_BOUNDS.toolSteps + 1);
    // The answer step is offered no tools; a call the model makes anyway is never run.
    expect(ofType(chunks, "tool-output-available").filter((c) => !("error" in Object(c.output)))).toHaveLength(
      QUESTION_BOUNDS.toolSteps,
    );
    expect(ofType(chunks, "data-limit").map((c) => c.data)).toEqual([
      { bound: "tool_steps", detail: expect.stringContaining("8 tool steps") },
    ]);
    expect(errorsOf(chunks)).toEqual([
      `The agent stopped after ${QUESTION_BOUNDS.toolSteps} tool steps without an answer. The question's credit is refunded.`,
    ]);
    expect(chunks.at(-2)?.type).toBe("finish");
    await expectRefunded(o);
  });
});

describe("the client going away", () => {
  it("aborts the model call and refunds a question that had no answer yet", async () => {
    const o = await newOrg();
    const marker = newMarker();
    await script(marker, [{ stall_ms: 3_000, text: "never read" }]);
    const res = await ask(o.users.member.token, { question: `Epping? [[${marker}]]` });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("stream-open");
    // Wait until the model server has the request, then hang up.
    for (let i = 0; i < 50 && (await modelRequests(marker)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    await reader.cancel();
    let closed = 0;
    for (let i = 0; i < 60 && closed === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      closed = await closedByClient(marker);
    }
    expect(closed).toBe(1);
    let state = await ledger(o);
    for (let i = 0; i < 60 && state.entries.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await ledger(o);
    }
    expect(state.entries.map((e) => e.type)).toEqual(["adjustment", "usage", "refund"]);
  });
});
