// The offline planner as an AI SDK language model: the same agent loop and tools run with no provider,
// no account and no network. Each call reads the prompt as chat messages and streams the planner's move.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { plan } from "./offline/planner.ts";
import type { ChatMessage, PlannerTurn } from "./offline/wire.ts";

export const OFFLINE_MODEL_ID = "offline-planner";

function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "The tool call was denied.";
    case "content":
      return output.value.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
}

/** The AI SDK prompt as OpenAI-style chat messages, the shape the planner reads. */
export function promptMessages(prompt: LanguageModelV4Prompt): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of prompt) {
    if (m.role === "system") out.push({ role: "system", content: m.content });
    else if (m.role === "user") {
      const text = m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
      out.push({ role: "user", content: text });
    } else if (m.role === "assistant") {
      const text = m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
      const calls = m.content.flatMap((p) =>
        p.type === "tool-call"
          ? [
              {
                id: p.toolCallId,
                type: "function" as const,
                function: { name: p.toolName, arguments: JSON.stringify(p.input ?? {}) },
              },
            ]
          : [],
      );
      out.push({ role: "assistant", content: text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      // Provider-run results may sit in the assistant message; the planner reads them as tool messages.
      for (const p of m.content)
        if (p.type === "tool-result")
          out.push({ role: "tool", tool_call_id: p.toolCallId, content: outputText(p.output) });
    } else {
      for (const p of m.content)
        if (p.type === "tool-result")
          out.push({ role: "tool", tool_call_id: p.toolCallId, content: outputText(p.output) });
    }
  }
  return out;
}

const roughTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

function usageOf(options: LanguageModelV4CallOptions, turn: PlannerTurn): LanguageModelV4Usage {
  const input = roughTokens(JSON.stringify(options.prompt));
  const output = roughTokens((turn.text ?? "") + JSON.stringify(turn.tool_calls ?? []));
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function decide(options: LanguageModelV4CallOptions): PlannerTurn {
  options.abortSignal?.throwIfAborted();
  const tools = new Set((options.tools ?? []).map((t) => t.name));
  return plan(promptMessages(options.prompt), tools);
}

const finishOf = (turn: PlannerTurn): LanguageModelV4FinishReason =>
  turn.tool_calls?.length ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };

/** The embedded offline planner; the default model when no provider is configured. */
export function offlineModel(): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "offline",
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const turn = decide(options);
      const content: LanguageModelV4Content[] = [];
      if (turn.text) content.push({ type: "text", text: turn.text });
      for (const call of turn.tool_calls ?? [])
        content.push({
          type: "tool-call",
          toolCallId: `offline-${crypto.randomUUID()}`,
          toolName: call.name,
          input: JSON.stringify(call.arguments),
        });
      return { content, finishReason: finishOf(turn), usage: usageOf(options, turn), warnings: [] };
    },
    async doStream(options) {
      const turn = decide(options);
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", modelId: OFFLINE_MODEL_ID, timestamp: new Date() },
      ];
      if (turn.text) {
        const id = "text-0";
        parts.push({ type: "text-start", id });
        // Word-sized deltas, as a model streams tokens.
        for (const delta of turn.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: "text-delta", id, delta });
        parts.push({ type: "text-end", id });
      }
      for (const call of turn.tool_calls ?? []) {
        const id = `offline-${crypto.randomUUID()}`;
        const input = JSON.stringify(call.arguments);
        parts.push(
          { type: "tool-input-start", id, toolName: call.name },
          { type: "tool-input-delta", id, delta: input },
          { type: "tool-input-end", id },
          { type: "tool-call", toolCallId: id, toolName: call.name, input },
        );
      }
      parts.push({ type: "finish", usage: usageOf(options, turn), finishReason: finishOf(turn) });
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
