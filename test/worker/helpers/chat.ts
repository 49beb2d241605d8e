// POST /chat through the real app, the local model server's control endpoints, and the stream read as
// a UI message stream client reads it.
import { SELF } from "cloudflare:test";
import { inject } from "vitest";
import type { Turn } from "../../../standins/llm/wire.ts";

export type Chunk = { type: string } & Record<string, unknown>;

export function ask(token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch("https://api.test/chat", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A fresh marker for one test's conversation; put `[[marker]]` in its questions. */
export const newMarker = (): string => `t-${crypto.randomUUID().slice(0, 8)}`;

/** Scripts the model's next turns for questions carrying `[[marker]]`, in request order. */
export async function script(marker: string, turns: Turn[]): Promise<void> {
  const res = await fetch(`${inject("llmControlUrl")}/__control/script`, {
    method: "POST",
    body: JSON.stringify({ marker, turns }),
  });
  if (!res.ok) throw new Error(`scripting the model server: ${res.status}`);
}

export interface WireRequest {
  model: string;
  stream: boolean;
  messages: {
    role: string;
    content?: unknown;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { function: { name: string } }[];
}

/** The chat-completions request bodies the model server received for `marker`. */
export async function modelRequests(marker: string): Promise<WireRequest[]> {
  return (await fetch(`${inject("llmControlUrl")}/__control/requests?marker=${marker}`)).json();
}

export async function closedByClient(marker: string): Promise<number> {
  return (
    (await (await fetch(`${inject("llmControlUrl")}/__control/closed?marker=${marker}`)).json()) as { closed: number }
  ).closed;
}

/** The stream's JSON parts in order; `[DONE]` becomes { type: "[DONE]" }; comments are skipped. */
export function parseUiStream(text: string): Chunk[] {
  const out: Chunk[] = [];
  for (const block of text.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (data === "") continue;
    out.push(data === "[DONE]" ? { type: "[DONE]" } : (JSON.parse(data) as Chunk));
  }
  return out;
}

export async function chunksOf(res: Response): Promise<Chunk[]> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return parseUiStream(await res.text());
}

export const ofType = (chunks: Chunk[], type: string) => chunks.filter((c) => c.type === type);
export const textOf = (chunks: Chunk[]) =>
  ofType(chunks, "text-delta")
    .map((c) => c.delta as string)
    .join("");

/** The highlighted parcels of a `data-parcels` part, with the properties the tests read. */
export type Parcels = {
  features: { id: string; properties: { area_m2: number; address: string | null; zone?: string; score?: number } }[];
};

/** One answered question, taken apart: tool calls, the first tool output, the highlighted parcels, the text. */
export async function answerOf(res: Response) {
  const chunks = await chunksOf(res);
  return {
    chunks,
    calls: ofType(chunks, "tool-input-available"),
    output: ofType(chunks, "tool-output-available")[0]?.output as Record<string, unknown>,
    parcels: ofType(chunks, "data-parcels")[0]?.data as Parcels | undefined,
    text: textOf(chunks),
    sessionId: res.headers.get("x-session-id") as string,
  };
}
