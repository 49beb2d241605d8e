// Credits for chat, in one place: a question is charged before streaming and settled when the answer
// ends (refunded when it failed before any answer); scoring tools charge per site like batch.
// Built on the current ledger; durable settlement (charged jobs) can replace the inside of these two.
import type { Db } from "../db/client.ts";
import { charge } from "../billing/charge.ts";
import { debit, grant } from "../billing/ledger.ts";
import { PRICES, costOf } from "../billing/prices.ts";
import type { SiteCharge } from "./tools/score-sites.ts";

export interface Payer {
  db: Db;
  orgId: string;
  userId: string;
}

export interface ChargedQuestion {
  questionId: string;
  charged: number;
  balance: number;
  /** Refunds the question when it was not answered; safe to call more than once. */
  settle(answered: boolean): Promise<void>;
}

/** Debits one question (0.05) or throws the structured 402 without charging. */
export async function chargeQuestion(payer: Payer): Promise<ChargedQuestion> {
  const questionId = crypto.randomUUID();
  const amount = PRICES.chatQuestion;
  const entry = await charge({ ...payer, amount, idempotencyKey: `chat:${questionId}`, actionType: "chat", relatedEntityId: questionId, description: "Chat question" });
  return {
    questionId,
    charged: amount,
    balance: entry.balance_after,
    async settle(answered) {
      if (answered) return;
      await grant({ ...payer, amount, type: "refund", idempotencyKey: `chat-refund:${questionId}`, relatedEntityId: questionId, description: "Refund for a chat question that got no answer" });
    },
  };
}

/** Per-site charges of the scoring tool in this question; one debit per tool call, keyed by it. */
export function siteCharger(payer: Payer, questionId: string): (sites: number, toolCallId: string) => ReturnType<SiteCharge> {
  return async (sites, toolCallId) => {
    const amount = costOf(sites, PRICES.batchScorePerRow);
    const result = await debit({
      ...payer,
      amount,
      idempotencyKey: `chat-score:${questionId}:${toolCallId}`,
      actionType: "batch_score",
      relatedEntityId: questionId,
      description: `Chat scoring of ${sites} site${sites === 1 ? "" : "s"}`,
    });
    if (result.ok) return { ok: true, charged: amount, balance: result.entry.balance_after };
    if (result.reason === "insufficient_credits") return { ok: false, required: result.required, available: result.available };
    throw new Error(`scoring charge refused: ${result.reason}`);
  };
}
