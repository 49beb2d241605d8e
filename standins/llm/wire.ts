// The OpenAI Chat Completions wire shapes the local model server reads and writes, and the one
// "turn" type that both scripted tests and the offline planner produce.

import type { ChatMessage } from "../../src/chat/offline/wire.ts";

export { textOf, type ChatMessage, type ContentPart, type WireToolCall } from "../../src/chat/offline/wire.ts";

export interface ChatCompletionRequest {
  model?: string;
  messages?: ChatMessage[];
  tools?: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
}

/** One model response. Scripted tests write these; the offline planner computes them. */
export interface Turn {
  /** Content deltas: one string is split into word-sized deltas. */
  text?: string | string[];
  /** `arguments` may be a raw string, e.g. malformed JSON on purpose. */
  tool_calls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
  /** Default: "tool_calls" when there are tool calls, else "stop". */
  finish_reason?: string;
  /** Answer with this HTTP status and an OpenAI error body instead of a completion. */
  status?: number;
  error?: string;
  /** Wait this long before the first byte (timeouts). */
  stall_ms?: number;
  /** Pause between streamed chunks. */
  delay_ms?: number;
  /** Drop the connection after this many chunks (a provider failing mid-stream). */
  break_after?: number;
  /** Send an in-stream `{"error": {...}}` event after the chunks instead of finishing. */
  error_event?: string;
}

/** Splits text into deltas the way a model streams tokens: words with their trailing space. */
export function deltas(text: string | string[]): string[] {
  if (Array.isArray(text)) return text;
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export function roughTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}
