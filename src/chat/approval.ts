// Chat approval (docs/design.md section 5): a scoring call that charges beyond the question asks first. What is
// kept while it waits, what the stream shows, and the tool message that carries the person's answer to the model.
import type { ModelMessage } from "ai";
import type { BudgetSpent } from "./budget.ts";
import type { MapContext } from "./instructions.ts";
import type { ApprovalRequestPart } from "../routes/schemas/chat-stream.ts";
import type { ScoringQuote } from "./tools/context.ts";

/** A request waiting in the session for the person's answer; it expires with the session. */
export interface PendingApproval extends ScoringQuote {
  /** The approval id the client answers with. */
  id: string;
  toolCallId: string;
  toolName: string;
  /** The UI message of the answer that asked: its continuation appends to it. */
  messageId: string;
  /** The question's spending so far: its answer continues within the same bounds. */
  spent: BudgetSpent;
  /** The map context the question was asked with. */
  map: MapContext;
  createdAt: number;
}

/** How a request ended; kept a while so a second answer hears why it is refused. */
export type ApprovalOutcome = "approved" | "declined" | "superseded";

export const DECLINED_REASON = "The person declined this scoring; nothing was charged for it.";
export const SUPERSEDED_REASON = "Not run: the person asked another question instead of approving this call.";

/** The question an approval asks, naming every site and the cost, as the person and the model read it. */
export function quoteSentence(q: ScoringQuote): string {
  const names = q.sites.map((s) => (s.address ? `${s.address} (${s.lot_id ?? "no lot id"})` : (s.lot_id ?? "a lot")));
  return `Scoring ${q.units} site${q.units === 1 ? "" : "s"} costs ${q.cost} credit${q.cost === 1 ? "" : "s"}: ${names.join("; ")}.`;
}

export const approvalPart = (p: PendingApproval): ApprovalRequestPart => ({
  id: p.id,
  tool_call_id: p.toolCallId,
  units: p.units,
  cost: p.cost,
  sites: p.sites,
});

/** The tool message carrying the person's answer, as the AI SDK reads approval responses. */
export function approvalResponse(p: PendingApproval, approved: boolean): ModelMessage {
  return {
    role: "tool",
    content: [
      { type: "tool-approval-response", approvalId: p.id, approved, ...(approved ? {} : { reason: DECLINED_REASON }) },
    ],
  };
}
