// Conversation history kept between questions, trimmed to a budget from the oldest whole turn.
import type { ModelMessage } from "ai";

export const MAX_HISTORY_MESSAGES = 40;
/** Serialised size of the kept history; tool results are compact, so this holds several turns. */
export const MAX_HISTORY_CHARS = 48_000;

const size = (m: ModelMessage) => JSON.stringify(m).length;

/**
 * The newest messages within both budgets, starting at a user message so no tool result is kept
 * without the call that produced it. A single turn over budget is dropped whole.
 */
export function trimHistory(
  messages: readonly ModelMessage[],
  maxMessages = MAX_HISTORY_MESSAGES,
  maxChars = MAX_HISTORY_CHARS,
): ModelMessage[] {
  let start = Math.max(0, messages.length - maxMessages);
  let chars = 0;
  for (let i = messages.length - 1; i >= start; i--) {
    chars += size(messages[i] as ModelMessage);
    if (chars > maxChars) {
      start = i + 1;
      break;
    }
  }
  while (start < messages.length && messages[start]?.role !== "user") start++;
  return messages.slice(start);
}

/**
 * Tool calls of the history that never got a result (an approval left unanswered, an answer that broke off),
 * closed as not run: a model prompt must have a result for every call before the next question.
 */
export function closeOpenCalls(messages: readonly ModelMessage[], reason: string): ModelMessage[] {
  const open = new Map<string, string>();
  for (const m of messages) {
    if (typeof m.content === "string") continue;
    for (const part of m.content) {
      if (m.role === "assistant" && part.type === "tool-call" && !part.providerExecuted)
        open.set(part.toolCallId, part.toolName);
      if ((m.role === "tool" || m.role === "assistant") && part.type === "tool-result") open.delete(part.toolCallId);
    }
  }
  if (open.size === 0) return [...messages];
  return [
    ...messages,
    {
      role: "tool",
      content: [...open].map(([toolCallId, toolName]) => ({
        type: "tool-result" as const,
        toolCallId,
        toolName,
        output: { type: "execution-denied" as const, reason },
      })),
    },
  ];
}
