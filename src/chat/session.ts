// Reaching a chat session's Durable Object from a request (the class lives in session-object.ts).
import type { ModelMessage } from "ai";
import type { PendingApproval } from "./approval.ts";
import type { AnswerResult, ChatSession, SessionOwner } from "./session-object.ts";

export type { SessionOwner };

/** The session's object: keyed by organisation too, so another organisation's id names an empty one. */
export function sessionStub(ns: DurableObjectNamespace<ChatSession>, orgId: string, sessionId: string) {
  return ns.get(ns.idFromName(`${orgId}:${sessionId.toLowerCase()}`));
}

/**
 * A session's history for its owner's next question (an approval still waiting is superseded by it);
 * null when unknown, expired or someone else's.
 */
export async function loadHistory(
  ns: DurableObjectNamespace<ChatSession>,
  owner: SessionOwner,
  sessionId: string,
): Promise<ModelMessage[] | null> {
  const json = await sessionStub(ns, owner.orgId, sessionId).historyForQuestion(owner);
  return json === null ? null : (JSON.parse(json) as ModelMessage[]);
}

/** Records the person's answer to a waiting approval, once; null when the session is unknown or not theirs. */
export async function answerApproval(
  ns: DurableObjectNamespace<ChatSession>,
  owner: SessionOwner,
  sessionId: string,
  approval: { id: string; approved: boolean },
): Promise<AnswerResult | null> {
  const json = await sessionStub(ns, owner.orgId, sessionId).answer(owner, approval.id, approval.approved);
  return json === null ? null : (JSON.parse(json) as AnswerResult);
}

export async function appendTurn(
  ns: DurableObjectNamespace<ChatSession>,
  owner: SessionOwner,
  sessionId: string,
  turn: ModelMessage[],
  pending: readonly PendingApproval[] = [],
): Promise<boolean> {
  return sessionStub(ns, owner.orgId, sessionId).append(owner, JSON.stringify(turn), JSON.stringify(pending));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isSessionId = (s: string): boolean => UUID.test(s);
