// The conversation as the offline planner reads it: OpenAI Chat Completions message shapes, which both the
// local model server (from the wire) and the embedded offline model (from the AI SDK prompt) produce.

export type ContentPart = { type: string; text?: string };

export type WireToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

export type ChatMessage =
  | { role: "system" | "developer" | "user"; content: string | ContentPart[] }
  | { role: "assistant"; content?: string | ContentPart[] | null; tool_calls?: WireToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string | ContentPart[] };

/** The planner's next move: an answer, or tool calls with their arguments. */
export interface PlannerTurn {
  text?: string;
  tool_calls?: { name: string; arguments: Record<string, unknown> }[];
}

export function textOf(content: string | ContentPart[] | null | undefined): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((p) => p.text ?? "").join("");
}
