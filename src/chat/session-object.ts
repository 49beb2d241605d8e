// One Durable Object per chat session holds its history and its pending approval, bound to the organisation and
// user that started it; an alarm deletes it after a day without questions.
import { DurableObject } from "cloudflare:workers";
import type { ModelMessage } from "ai";
import { type ApprovalOutcome, approvalResponse, type PendingApproval, SUPERSEDED_REASON } from "./approval.ts";
import { closeOpenCalls, trimHistory } from "./history.ts";

export const SESSION_IDLE_MS = 24 * 60 * 60_000;
/** Answered approval ids remembered per session, so a second answer is told why it is refused. */
const ANSWERED_KEPT = 50;

export interface SessionOwner {
  orgId: string;
  userId: string;
}

interface Stored extends SessionOwner {
  createdAt: number;
  updatedAt: number;
  messages: ModelMessage[];
  /** Approval requests of the last answer still waiting for the person. */
  pending?: PendingApproval[];
  answered?: { id: string; outcome: ApprovalOutcome }[];
}

/** What answering an approval found (JSON across RPC). */
export type AnswerResult =
  | { status: "open"; pending: PendingApproval; history: ModelMessage[] }
  | { status: "answered"; outcome: ApprovalOutcome }
  | { status: "unknown" };

const KEY = "session";

export class ChatSession extends DurableObject<Env> {
  private async read(owner: SessionOwner): Promise<Stored | null> {
    const s = await this.ctx.storage.get<Stored>(KEY);
    // Past its idle time the session is gone even if the alarm has not run yet.
    if (!s || s.updatedAt + SESSION_IDLE_MS <= Date.now()) return null;
    return s.orgId === owner.orgId && s.userId === owner.userId ? s : null;
  }

  private async write(s: Stored): Promise<void> {
    await this.ctx.storage.put(KEY, s);
    await this.ctx.storage.setAlarm(s.updatedAt + SESSION_IDLE_MS);
  }

  /** Starts the session for its owner; false when the id is already taken. */
  async start(owner: SessionOwner): Promise<boolean> {
    if (await this.ctx.storage.get<Stored>(KEY)) return false;
    const now = Date.now();
    await this.write({ ...owner, createdAt: now, updatedAt: now, messages: [] });
    return true;
  }

  // Messages cross RPC as JSON text: their deep types would otherwise swamp the RPC type mapping.

  /** The history as JSON, or null when the session does not exist or belongs to someone else. */
  async history(owner: SessionOwner): Promise<string | null> {
    const s = await this.read(owner);
    return s ? JSON.stringify(s.messages) : null;
  }

  /**
   * The history for a new question (JSON): an approval still waiting is superseded by it, and any call left
   * without a result is closed as not run, so the model reads a whole conversation.
   */
  async historyForQuestion(owner: SessionOwner): Promise<string | null> {
    const s = await this.read(owner);
    if (!s) return null;
    const messages = closeOpenCalls(s.messages, SUPERSEDED_REASON);
    const pending = s.pending ?? [];
    if (pending.length > 0 || messages.length !== s.messages.length)
      await this.write({
        ...s,
        messages,
        pending: [],
        answered: remember(
          s.answered,
          pending.map((p) => ({ id: p.id, outcome: "superseded" as const })),
        ),
      });
    return JSON.stringify(messages);
  }

  /**
   * Answers a waiting approval once: the answer joins the history and the request leaves the pending list.
   * Null when the session does not exist or is someone else's.
   */
  async answer(owner: SessionOwner, approvalId: string, approved: boolean): Promise<string | null> {
    const s = await this.read(owner);
    if (!s) return null;
    const id = approvalId.toLowerCase();
    const pending = (s.pending ?? []).find((p) => p.id.toLowerCase() === id);
    if (!pending) {
      const earlier = (s.answered ?? []).find((a) => a.id.toLowerCase() === id);
      const result: AnswerResult = earlier ? { status: "answered", outcome: earlier.outcome } : { status: "unknown" };
      return JSON.stringify(result);
    }
    const messages = [...s.messages, approvalResponse(pending, approved)];
    await this.write({
      ...s,
      updatedAt: Date.now(),
      messages,
      pending: (s.pending ?? []).filter((p) => p !== pending),
      answered: remember(s.answered, [{ id: pending.id, outcome: approved ? "approved" : "declined" }]),
    });
    const result: AnswerResult = { status: "open", pending, history: messages };
    return JSON.stringify(result);
  }

  /**
   * Appends a finished turn (JSON) and the approvals it waits for (JSON), and trims to the budget; false when
   * the session is gone or not the caller's.
   */
  async append(owner: SessionOwner, turnJson: string, pendingJson = "[]"): Promise<boolean> {
    const s = await this.read(owner);
    if (!s) return false;
    const added = JSON.parse(pendingJson) as PendingApproval[];
    await this.write({
      ...s,
      updatedAt: Date.now(),
      messages: trimHistory([...s.messages, ...(JSON.parse(turnJson) as ModelMessage[])]),
      pending: [...(s.pending ?? []), ...added],
    });
    return true;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

function remember(
  answered: Stored["answered"],
  more: { id: string; outcome: ApprovalOutcome }[],
): { id: string; outcome: ApprovalOutcome }[] {
  return [...(answered ?? []), ...more].slice(-ANSWERED_KEPT);
}
