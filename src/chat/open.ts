// Opening a question: its session (new, or an existing one's history), the packs it may use, and its charge,
// asked at once where no answer can depend on another, so the first byte waits for the slowest, not their sum.
import type { ModelMessage } from "ai";
import { NotFoundError } from "../errors.ts";
import type { PackScope } from "../packs/scope.ts";
import type { Payer } from "../credits/charged-work.ts";
import { type QuestionCharges, chargeQuestion } from "./charge.ts";
import type { ChatSession, SessionOwner } from "./session-object.ts";
import { isSessionId, loadHistory, sessionStub } from "./session.ts";

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
