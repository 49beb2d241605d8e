// The local model server's wire format, read as raw bytes: what an OpenAI client receives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLlmServer, type LlmServer } from "./server.ts";

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ apiKey: "k" });
});
afterAll(() => server.stop());

const post = (body: unknown, key = "k") =>
  fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
const script = (marker: string, turns: unknown[]) =>
  fetch(`${server.controlUrl}/__control/script`, { method: "POST", body: JSON.stringify({ marker, turns }) });

function events(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((b) => b.startsWith("data: "))
    .map((b) => b.slice(6))
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
}

type Chunk = {
  object: string;
  choices: {
    delta: {
      role?: string;
      content?: string;
      tool_calls?: { index: number; id?: string; type?: string; function: { name?: string; arguments: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
};

describe("local model server", () => {
  it("streams chat.completion.chunk events: role, content deltas, finish_reason, usage, [DONE]", async () => {
    await script("w1", [{ text: "Hello there planner" }]);
    const res = await post({
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi [[w1]]" }],
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const evs = events(await res.text());
    expect(evs.at(-1)).toBe("[DONE]");
    const chunks = evs.slice(0, -1) as Chunk[];
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello there planner");
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    const usage = chunks.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage?.total_tokens).toBe(
      (usage?.usage?.prompt_tokens ?? 0) + (usage?.usage?.completion_tokens ?? 0),
    );
  });

  it("streams tool calls as an id and name, then argument pieces, then finish_reason tool_calls", async () => {
    await script("w2", [
      { tool_calls: [{ id: "call_1", name: "find_parcels", arguments: { suburb: "Epping", min_area_m2: 600 } }] },
    ]);
    const chunks = events(
      await (await post({ stream: true, messages: [{ role: "user", content: "[[w2]]" }] })).text(),
    ).slice(0, -1) as Chunk[];
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "find_parcels", arguments: "" },
    });
    expect(calls.length).toBeGreaterThan(2);
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(""))).toEqual({ suburb: "Epping", min_area_m2: 600 });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("plays a script's turns in order, then records what it received", async () => {
    await script("w3", [{ text: "one" }, { text: "two" }]);
    const read = async () =>
      (
        (await (await post({ messages: [{ role: "user", content: "[[w3]]" }] })).json()) as {
          choices: { message: { content: string } }[];
        }
      ).choices[0]?.message.content;
    expect(await read()).toBe("one");
    expect(await read()).toBe("two");
    expect(await read()).toBe("two");
    const recorded = (await (await fetch(`${server.controlUrl}/__control/requests?marker=w3`)).json()) as unknown[];
    expect(recorded).toHaveLength(3);
  });

  it("answers an OpenAI error body for a scripted status and for a wrong key", async () => {
    await script("w4", [{ status: 503, error: "overloaded" }]);
    const res = await post({ stream: true, messages: [{ role: "user", content: "[[w4]]" }] });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: { message: "overloaded", type: "server_error", param: null, code: null },
    });
    const denied = await post({ messages: [{ role: "user", content: "hi" }] }, "wrong");
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { error: { message: string } }).error.message).toContain("Incorrect API key");
  });

  it("without a script, the offline planner answers", async () => {
    const res = await post({
      messages: [{ role: "user", content: "What is in Parramatta?" }],
      tools: [{ type: "function", function: { name: "summarise_area" } }],
    });
    const body = (await res.json()) as {
      choices: {
        message: { tool_calls: { function: { name: string; arguments: string } }[] };
        finish_reason: string;
      }[];
    };
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
    expect(body.choices[0]?.message.tool_calls[0]?.function).toEqual({
      name: "summarise_area",
      arguments: JSON.stringify({ suburb: "Parramatta" }),
    });
  });
});
