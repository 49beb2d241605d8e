// Chat approval in tests: the request a stream stopped at, and the client's answer through the real route.
import { expect } from "vitest";
import type { ApprovalRequestPart } from "../../../src/routes/schemas/chat-stream.ts";
import { ask, type Chunk, chunksOf, ofType } from "../helpers/chat.ts";

/** The approval request a stream stopped at, checked against the SDK's own request part; null when none. */
export function approvalIn(chunks: Chunk[]): ApprovalRequestPart | null {
  const parts = ofType(chunks, "data-approval").map((c) => c.data as ApprovalRequestPart);
  const requests = ofType(chunks, "tool-approval-request").filter((c) => c.isAutomatic !== true);
  expect(parts.map((p) => [p.id, p.tool_call_id])).toEqual(requests.map((r) => [r.approvalId, r.toolCallId]));
  expect(parts.length).toBeLessThanOrEqual(1);
  return parts[0] ?? null;
}

export const answer = (token: string, sessionId: string, id: string, approved: boolean): Promise<Response> =>
  ask(token, { session_id: sessionId, approval: { id, approved } });

/**
 * Asks, then approves every request the answer stops at, as a person clicking Approve would: the chunks of
 * every stream in order and the requests approved.
 */
export async function askApproving(
  token: string,
  body: Record<string, unknown>,
): Promise<{ chunks: Chunk[]; approvals: ApprovalRequestPart[]; sessionId: string }> {
  const res = await ask(token, body);
  const sessionId = res.headers.get("x-session-id") as string;
  const chunks = await chunksOf(res);
  const approvals: ApprovalRequestPart[] = [];
  for (let request = approvalIn(chunks); request; ) {
    approvals.push(request);
    const next = await chunksOf(await answer(token, sessionId, request.id, true));
    chunks.push(...next);
    request = approvalIn(next);
  }
  return { chunks, approvals, sessionId };
}
