// Local model server speaking the OpenAI Chat Completions API (POST /v1/chat/completions, streamed as
// SSE `chat.completion.chunk`s with `delta.content` / `delta.tool_calls`, `finish_reason`, a usage chunk
// and `[DONE]`), so the Worker's real AI SDK client runs against real wire bytes in dev and tests.
// Answers come from the offline planner (src/chat/offline/planner.ts), or from a script a test registered:
//   POST /__control/script {marker, turns: Turn[]}  a question containing `[[marker]]` gets turns[0],
//                                                   the next request of that conversation turns[1], ...
//   GET  /__control/requests?marker=M               request bodies received for M, oldest first
//   GET  /__control/closed?marker=M                 how many responses for M the client closed early
//   POST /__control/reset                           forget scripts and records
// Run alone: node_modules/.bin/node standins/llm/server.ts  (port 54340)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { plan } from "../../src/chat/offline/planner.ts";
import { deltas, roughTokens, textOf, type ChatCompletionRequest, type Turn, type WireToolCall } from "./wire.ts";

export const DEV_LLM_MODEL = "offline-planner";

export interface LlmServerOptions {
  /** 0 = a free port. */
  port?: number;
  /** Bearer key callers must send; any (or none) is accepted when absent. */
  apiKey?: string;
}

export interface LlmServer {
  /** Base URL for an OpenAI-compatible client, ending in /v1. */
  url: string;
  /** Base URL of the control endpoints. */
  controlUrl: string;
  stop(): Promise<void>;
}

const MARKER = /\[\[([\w-]+)\]\]/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function markerOf(body: ChatCompletionRequest): string | null {
  for (const m of [...(body.messages ?? [])].reverse()) {
    if (m.role !== "user") continue;
    const hit = MARKER.exec(textOf(m.content));
    if (hit) return hit[1] as string;
  }
  return null;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function openAiError(res: ServerResponse, status: number, message: string, type = "server_error"): void {
  sendJson(res, status, { error: { message, type, param: null, code: null } });
}

function wireCalls(turn: Turn): WireToolCall[] {
  return (turn.tool_calls ?? []).map((c) => ({
    id: c.id ?? `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
    type: "function",
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
  }));
}

function usageOf(body: ChatCompletionRequest, turn: Turn) {
  const prompt = roughTokens(JSON.stringify(body.messages ?? []));
  const completion = roughTokens(JSON.stringify(turn.text ?? "") + JSON.stringify(turn.tool_calls ?? []));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The chunks of one streamed completion, in the order OpenAI sends them. */
export function completionChunks(turn: Turn, model: string, id = `chatcmpl-${randomUUID()}`): unknown[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const d of deltas(turn.text ?? "")) out.push(chunk({ content: d }));
  wireCalls(turn).forEach((call, index) => {
    out.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      }),
    );
    // Arguments arrive in pieces, as real models send them.
    for (const piece of call.function.arguments.match(/[\s\S]{1,16}/g) ?? [])
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  out.push(chunk({}, turn.finish_reason ?? (turn.tool_calls?.length ? "tool_calls" : "stop")));
  return out;
}

export async function startLlmServer({ port = 0, apiKey }: LlmServerOptions = {}): Promise<LlmServer> {
  const scripts = new Map<string, Turn[]>();
  const served = new Map<string, number>();
  const requests = new Map<string, unknown[]>();
  const closed = new Map<string, number>();

  function nextTurn(body: ChatCompletionRequest): Turn {
    const marker = markerOf(body);
    if (marker) {
      requests.set(marker, [...(requests.get(marker) ?? []), body]);
      const turns = scripts.get(marker);
      if (turns && turns.length > 0) {
        const k = served.get(marker) ?? 0;
        served.set(marker, k + 1);
        return turns[Math.min(k, turns.length - 1)] as Turn;
      }
    }
    const tools = new Set((body.tools ?? []).map((t) => t.function.name));
    return plan(body.messages ?? [], tools);
  }

  async function complete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = req.headers.authorization ?? "";
    if (apiKey && auth !== `Bearer ${apiKey}`)
      return openAiError(res, 401, "Incorrect API key provided.", "invalid_request_error");
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(await readBody(req)) as ChatCompletionRequest;
    } catch {
      return openAiError(res, 400, "We could not parse the JSON body of your request.", "invalid_request_error");
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return openAiError(res, 400, "'messages' must be a non-empty array.", "invalid_request_error");
    const turn = nextTurn(body);
    const marker = markerOf(body);
    let finished = false;
    // Listening from the start: a client that hangs up during a stall must be counted too.
    res.on("close", () => {
      if (!finished && marker) closed.set(marker, (closed.get(marker) ?? 0) + 1);
    });
    if (turn.stall_ms) await sleep(turn.stall_ms);
    if (res.destroyed) return;
    const done = () => {
      finished = true;
    };
    if (turn.status && turn.status >= 400) {
      done();
      return openAiError(res, turn.status, turn.error ?? "The server had an error while processing your request.");
    }
    const model = body.model ?? DEV_LLM_MODEL;

    if (!body.stream) {
      const calls = wireCalls(turn);
      const text = Array.isArray(turn.text) ? turn.text.join("") : (turn.text ?? "");
      done();
      sendJson(res, 200, {
        id: `chatcmpl-${randomUUID()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: text || null, ...(calls.length ? { tool_calls: calls } : {}) },
            logprobs: null,
            finish_reason: turn.finish_reason ?? (calls.length ? "tool_calls" : "stop"),
          },
        ],
        usage: usageOf(body, turn),
      });
      return;
    }

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const send = (data: unknown) => res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    const chunks = completionChunks(turn, model);
    for (let i = 0; i < chunks.length; i++) {
      if (res.destroyed) return;
      if (turn.break_after !== undefined && i >= turn.break_after) {
        done();
        res.destroy();
        return;
      }
      if (turn.error_event !== undefined && i === chunks.length - 1) {
        send({ error: { message: turn.error_event, type: "server_error", param: null, code: null } });
        done();
        res.end();
        return;
      }
      send(chunks[i]);
      if (turn.delay_ms) await sleep(turn.delay_ms);
    }
    if (body.stream_options?.include_usage)
      send({
        id: "usage",
        object: "chat.completion.chunk",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [],
        usage: usageOf(body, turn),
      });
    send("[DONE]");
    done();
    res.end();
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const json = (status: number, body: unknown) => sendJson(res, status, body);
    const marker = url.searchParams.get("marker") ?? "";
    if (req.method === "POST" && url.pathname === "/__control/script") {
      const body = JSON.parse(await readBody(req)) as { marker?: string; turns?: Turn[] };
      if (!body.marker || !Array.isArray(body.turns)) return json(400, { error: "marker and turns are required" });
      scripts.set(body.marker, body.turns);
      served.delete(body.marker);
      return json(200, { ok: true });
    }
    if (req.method === "GET" && url.pathname === "/__control/requests") return json(200, requests.get(marker) ?? []);
    if (req.method === "GET" && url.pathname === "/__control/closed")
      return json(200, { closed: closed.get(marker) ?? 0 });
    if (req.method === "POST" && url.pathname === "/__control/reset") {
      for (const m of [scripts, served, requests, closed]) m.clear();
      return json(200, { ok: true });
    }
    json(404, { error: "Not found" });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const work = url.pathname.startsWith("/__control/")
      ? control(req, res, url)
      : req.method === "POST" && url.pathname === "/v1/chat/completions"
        ? complete(req, res)
        : req.method === "GET" && url.pathname === "/v1/models"
          ? Promise.resolve(
              sendJson(res, 200, {
                object: "list",
                data: [{ id: DEV_LLM_MODEL, object: "model", created: 0, owned_by: "local" }],
              }),
            )
          : Promise.resolve(
              openAiError(res, 404, `Unknown request URL: ${req.method} ${url.pathname}`, "invalid_request_error"),
            );
    work.catch((err: unknown) => {
      if (!res.headersSent) openAiError(res, 500, err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/v1`,
    controlUrl: base,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startLlmServer({ port: Number(process.env.LLM_PORT ?? 54340) });
  console.log(`local model server: ${server.url} (model ${DEV_LLM_MODEL})`);
}
