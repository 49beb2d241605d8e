// Reaching a chat session's Durable Object from a request (the class lives in session-object.ts).
import type { ModelMessage } from "ai";
import type { ChatSession, SessionOwner } from "./session-object.ts";

export type { SessionOwner };

/** The session's object: keyed by organisation too, so another organisation's id names an empty one. */
export function sessionStub(ns: DurableObjectNamespace<ChatSession>, orgId: string, sessionId: string) {
  return ns.get(ns.idFromName(`${orgId}:${sessionId.toLowerCase()}`));
}

/** A session's history for its owner; null when unknown, expired or someone else's. */
export async function loadHistory(
  ns: DurableObjectNamespace<ChatSession>,
  owner: SessionOwner,
  sessionId: string,
): Promise<ModelMessage[] | null> {
  const json = await sessionStub(ns, owner.orgId, sessionId).history(owner);
  return json === null ? null : (JSON.parse(json) as ModelMessage[]);
}

export async function appendTurn(
  ns: DurableObjectNamespace<ChatSession>,
  owner: SessionOwner,
  sessionId: string,
  turn: ModelMessage[],
): Promise<boolean> {
  return sessionStub(ns, owner.orgId, sessionId).append(owner, JSON.stringify(turn));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isSessionId = (s: string): boolean => UUID.test(s);
