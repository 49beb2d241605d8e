// Cloudflare Workers AI through its `AI` binding, as an AI SDK language model: one `run` per step with the
// conversation and the tools (function calling), its answer or tool calls replayed as stream parts.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { promptMessages } from "./offline-model.ts";

/** The part of the `AI` binding (`env.AI`) this provider uses. */
export interface WorkersAiBinding {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown) => (typeof v === "number" ? v : undefined);

/** Whether a binding value has the `run` method this provider calls. */
export function isWorkersAiBinding(v: unknown): v is WorkersAiBinding {
  return isObj(v) && typeof v.run === "function";
}

interface Answer {
  text: string;
  calls: { name: string; input: string }[];
  usage: LanguageModelV4Usage;
}

// Workers AI answers `{response, tool_calls: [{name, arguments}], usage}`; its OpenAI-style models answer
// `{choices: [{message: {content, tool_calls: [{function: {name, arguments}}]}}]}`.
function readAnswer(out: unknown): Answer {
  if (!isObj(out)) throw new Error("Workers AI returned no result object.");
  const message = Array.isArray(out.choices) && isObj(out.choices[0]) ? out.choices[0].message : undefined;
  const body = isObj(message) ? message : out;
  const text = typeof body.response === "string" ? body.response : typeof body.content === "string" ? body.content : "";
  const calls = (Array.isArray(body.tool_calls) ? body.tool_calls : []).filter(isObj).map((c) => {
    const fn = isObj(c.function) ? c.function : c;
    const args = fn.arguments ?? {};
    return { name: String(fn.name ?? ""), input: typeof args === "string" ? args : JSON.stringify(args) };
  });
  const u = isObj(out.usage) ? out.usage : {};
  return {
    text,
    calls,
    usage: {
      inputTokens: { total: count(u.prompt_tokens), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: count(u.completion_tokens), text: undefined, reasoning: undefined },
    },
  };
}

async function ask(ai: WorkersAiBinding, model: string, options: LanguageModelV4CallOptions): Promise<Answer> {
  options.abortSignal?.throwIfAborted();
  const tools = (options.tools ?? []).flatMap((t) =>
    t.type === "function"
      ? [{ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }]
      : [],
  );
  const out = await ai.run(model, {
    messages: promptMessages(options.prompt),
    ...(tools.length > 0 ? { tools } : {}),
    ...(options.maxOutputTokens ? { max_tokens: options.maxOutputTokens } : {}),
  });
  options.abortSignal?.throwIfAborted();
  return readAnswer(out);
}

const finish = (a: Answer) =>
  a.calls.length > 0
    ? { unified: "tool-calls" as const, raw: "tool_calls" }
    : { unified: "stop" as const, raw: "stop" };

export function workersAiModel(ai: WorkersAiBinding, model: string): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "workers-ai",
    modelId: model,
    supportedUrls: {},
    async doGenerate(options) {
      const a = await ask(ai, model, options);
      const content: LanguageModelV4Content[] = a.text ? [{ type: "text", text: a.text }] : [];
      for (const c of a.calls)
        content.push({ type: "tool-call", toolCallId: `wai-${crypto.randomUUID()}`, toolName: c.name, input: c.input });
      return { content, finishReason: finish(a), usage: a.usage, warnings: [] };
    },
    async doStream(options) {
      const a = await ask(ai, model, options);
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (a.text)
        parts.push(
          { type: "text-start", id: "0" },
          { type: "text-delta", id: "0", delta: a.text },
          { type: "text-end", id: "0" },
        );
      for (const c of a.calls)
        parts.push({ type: "tool-call", toolCallId: `wai-${crypto.randomUUID()}`, toolName: c.name, input: c.input });
      parts.push({ type: "finish", usage: a.usage, finishReason: finish(a) });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
