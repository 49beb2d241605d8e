// The Workers AI provider (LLM_PROVIDER=workers-ai) through the real app, with a small binding object that
// keeps the `AI` binding's contract (`run(model, {messages, tools})` resolving to `{response, tool_calls}`)
// in place of Cloudflare's, which wrangler only offers remotely.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { DEFAULT_WORKERS_AI_MODEL } from "../../../src/env.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { ofType, parseUiStream, textOf } from "../helpers/chat.ts";

type RunInputs = {
  messages: { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; parameters: { type: string } } }[];
};

/** Answers each `run` with the next scripted result (or throws it), recording what it was asked. */
function binding(answers: (Record<string, unknown> | Error)[]) {
  const calls: { model: string; inputs: RunInputs }[] = [];
  return {
    calls,
    async run(model: string, inputs: RunInputs): Promise<unknown> {
      calls.push({ model, inputs: structuredClone(inputs) });
      const next = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
});

async function ask(ai: ReturnType<typeof binding>, question: string) {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request("https://api.test/chat", {
      method: "POST",
      headers: { Authorization: `Bearer ${org.users.member.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ question }),
    }),
    { ...env, LLM_PROVIDER: "workers-ai", LLM_API_URL: "", LLM_MODEL: "", AI: ai },
    ctx,
  );
  expect(res.status).toBe(200);
  const chunks = parseUiStream(await res.text());
  await waitOnExecutionContext(ctx);
  return chunks;
}

describe("Workers AI through the AI binding", () => {
  it("runs the tool loop: a tool call from `run`, the tool's map data, then the answer from the tool result", async () => {
    const ai = binding([
      {
        response: null,
        tool_calls: [{ name: "describe_parcel", arguments: { lot_id: "Lot 24 DP 1293293" } }],
        usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 },
      },
      { response: "Lot 24 is zoned R2.", usage: { prompt_tokens: 1200, completion_tokens: 8, total_tokens: 1208 } },
    ]);
    const chunks = await ask(ai, "Describe Lot 24 DP 1293293");
    expect(ofType(chunks, "tool-input-available")[0]).toMatchObject({
      toolName: "describe_parcel",
      input: { lot_id: "Lot 24 DP 1293293" },
    });
    expect(ofType(chunks, "tool-output-available")[0]).toMatchObject({ output: { lot_id: "24//DP1293293" } });
    const parcels = ofType(chunks, "data-parcels")[0]?.data as { features: { id: string }[] };
    expect(parcels.features.map((f) => f.id)).toEqual(["24//DP1293293"]);
    expect(textOf(chunks)).toBe("Lot 24 is zoned R2.");

    expect(ai.calls.map((c) => c.model)).toEqual([DEFAULT_WORKERS_AI_MODEL, DEFAULT_WORKERS_AI_MODEL]);
    const first = ai.calls[0]?.inputs;
    expect(first?.messages[0]?.role).toBe("system");
    expect(first?.messages.at(-1)).toEqual({ role: "user", content: "Describe Lot 24 DP 1293293" });
    expect(first?.tools?.map((t) => t.function.name).sort()).toEqual([
      "describe_parcel",
      "find_assemblies",
      "find_parcels",
      "geocode_suburb",
      "lookup_lot",
      "score_sites",
      "summarise_area",
    ]);
    expect(first?.tools?.every((t) => t.type === "function" && t.function.parameters.type === "object")).toBe(true);
    // The second step carries the call and its result, linked by id, as Workers AI expects.
    const second = ai.calls[1]?.inputs.messages ?? [];
    const call = second.find((m) => m.role === "assistant")?.tool_calls?.[0];
    const result = second.find((m) => m.role === "tool");
    expect(result?.tool_call_id).toBe(call?.id);
    expect(JSON.parse(result?.content as string)).toMatchObject({ lot_id: "24//DP1293293" });
  });

  it("reads the OpenAI-style answer some Workers AI models give ({choices: [{message}]})", async () => {
    const ai = binding([
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "geocode_suburb", arguments: '{"suburb":"Epping"}' } },
              ],
            },
          },
        ],
      },
      { choices: [{ message: { content: "Epping is on the map." } }] },
    ]);
    const chunks = await ask(ai, "Where is Epping?");
    expect(ofType(chunks, "tool-input-available")[0]).toMatchObject({
      toolName: "geocode_suburb",
      input: { suburb: "Epping" },
    });
    expect(ofType(chunks, "data-bbox")[0]).toMatchObject({ data: { label: "Epping, NSW" } });
    expect(textOf(chunks)).toBe("Epping is on the map.");
  });

  it("a failing `run` ends the stream with an error part and refunds the question", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const ai = binding([new Error("AiError: 3040: Capacity temporarily exceeded")]);
    const chunks = await ask(ai, "What is in Epping?");
    const error = ofType(chunks, "error")[0];
    expect(error?.errorText).toMatch(/refunded/);
    expect(textOf(chunks)).toBe("");
    const after = await withDb((db) => ledgerState(db, org.orgId));
    expect(after.cached).toBe(before.cached);
  });
});
