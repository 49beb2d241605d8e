// Opening a question: its session (new, or an existing one's history), the packs it may use, and its charge,
// asked at once where no answer can depend on another, so the first byte waits for the slowest, not their sum.
import type { ModelMessage } from "ai";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { PackScope } from "../packs/scope.ts";
import type { Payer } from "../credits/charged-work.ts";
import type { PendingApproval } from "./approval.ts";
import { approvalCharges, type QuestionCharges, type SiteCharges, chargeQuestion } from "./charge.ts";
import type { ChatSession, SessionOwner } from "./session-object.ts";
import { answerApproval, isSessionId, loadHistory, sessionStub } from "./session.ts";

export interface OpenedQuestion {
  sessionId: string;
  history: ModelMessage[];
  packs: PackScope;
  charges: QuestionCharges;
}

const NOTHING_DELIVERED = { answered: false, toolOutputs: new Set<string>() };

/**
 * A continued session is found first (unknown, expired or someone else's is the same 404, charging nothing);
 * a new one is started beside the charge, and when the session or the packs then fail the charge is settled
 * as nothing delivered (refunded) before the failure is thrown.
 */
export async function openQuestion(input: {
  sessions: DurableObjectNamespace<ChatSession>;
  owner: SessionOwner;
  payer: Payer;
  sessionId: string | undefined;
  packs: () => Promise<PackScope>;
}): Promise<OpenedQuestion> {
  const { sessions, owner, payer } = input;
  if (input.sessionId !== undefined) {
    const sessionId = input.sessionId.toLowerCase();
    const [history, packs] = await Promise.all([
      isSessionId(sessionId) ? loadHistory(sessions, owner, sessionId) : null,
      input.packs(),
    ]);
    if (!history) throw new NotFoundError();
    return { sessionId, history, packs, charges: await chargeQuestion(payer) };
  }
  const sessionId = crypto.randomUUID();
  const [started, packs, charges] = await Promise.allSettled([
    sessionStub(sessions, owner.orgId, sessionId).start(owner),
    input.packs(),
    chargeQuestion(payer),
  ]);
  if (charges.status === "rejected") throw charges.reason;
  if (started.status === "fulfilled" && packs.status === "fulfilled")
    return { sessionId, history: [], packs: packs.value, charges: charges.value };
  await charges.value.settle(NOTHING_DELIVERED);
  throw (started.status === "rejected" ? started : (packs as PromiseRejectedResult)).reason;
}

export interface OpenedApproval {
  sessionId: string;
  /** The history, ending with the person's answer. */
  history: ModelMessage[];
  pending: PendingApproval;
  packs: PackScope;
  charges: SiteCharges;
}

const ANSWERED: Record<string, string> = {
  approved: "was already approved",
  declined: "was already declined",
  superseded: "expired: a later question was asked in this session",
};

/**
 * Records the answer to a waiting approval, once. An unknown, expired or another user's session is 404 as for
 * questions; an id this session never asked is 404 with a sentence; an id already answered is 409.
 */
export async function openApproval(input: {
  sessions: DurableObjectNamespace<ChatSession>;
  owner: SessionOwner;
  payer: Payer;
  sessionId: string;
  approval: { id: string; approved: boolean };
  packs: () => Promise<PackScope>;
}): Promise<OpenedApproval> {
  const sessionId = input.sessionId.toLowerCase();
  if (!isSessionId(sessionId)) throw new NotFoundError();
  // Packs first: an answer is recorded only when its call can then run.
  const packs = await input.packs();
  const answer = await answerApproval(input.sessions, input.owner, sessionId, input.approval);
  if (!answer) throw new NotFoundError();
  if (answer.status === "unknown")
    throw new NotFoundError(`No approval request ${input.approval.id} is waiting in this chat session.`);
  if (answer.status === "answered")
    throw new ConflictError(
      `Approval request ${input.approval.id} ${ANSWERED[answer.outcome]}; each request is answered once. Ask again to score more.`,
    );
  return {
    sessionId,
    history: answer.history,
    pending: answer.pending,
    packs,
    charges: approvalCharges(input.payer, answer.pending.id),
  };
}
