// Credits for one question through the one charged-work path: the question (0.05) and each scoring call
// (0.1 per new site), all settled when the stream ends for what the client actually received.
import { reserve, tryReserve, type ChargedWork, type Payer } from "../credits/charged-work.ts";
import type { SiteCharge } from "./tools/context.ts";

/** What reached the client before the stream ended or the client left. */
export interface Delivery {
  /** Some answer text, or an approval request, was taken by the client. */
  answered: boolean;
  /** Tool calls whose output part the client took. */
  toolOutputs: ReadonlySet<string>;
}

export interface SiteCharges {
  /** Charges a scoring tool call for its new sites, or says what was short (nothing written). */
  chargeSites(sites: number, toolCallId: string): ReturnType<SiteCharge>;
  /** Settles every job for what was delivered; never throws (the sweep backs a failure). */
  settle(delivery: Delivery): Promise<void>;
}

export interface QuestionCharges extends SiteCharges {
  question: ChargedWork;
}

/** Scoring charges of one question or one approved call, each keyed by its call so a retry never charges twice. */
function siteCharges(payer: Payer, keyPrefix: string): SiteCharges {
  const scoring = new Map<string, ChargedWork>();
  return {
    async chargeSites(sites, toolCallId) {
      const reserved = await tryReserve(payer, {
        action: "batch_score",
        units: sites,
        key: `${keyPrefix}:${toolCallId}`,
        description: `Chat scoring of ${sites} site${sites === 1 ? "" : "s"}`,
      });
      if (!reserved.ok) {
        if (reserved.reason === "insufficient_credits")
          return { ok: false, required: reserved.required, available: reserved.available };
        throw new Error(`chat scoring charge refused: ${reserved.reason}`);
      }
      scoring.set(toolCallId, reserved.work);
      return { ok: true, charged: reserved.work.charged, balance: reserved.work.balance };
    },
    async settle(delivery) {
      // One after another: each settlement opens a connection of its own.
      for (const [toolCallId, work] of scoring)
        await work.settle(delivery.toolOutputs.has(toolCallId) ? work.units : 0);
    },
  };
}

/** Opens the question's job (0.05 debit) or throws the structured 402 without writing anything. */
export async function chargeQuestion(payer: Payer): Promise<QuestionCharges> {
  const question = await reserve(payer, { action: "chat", units: 1, description: "Chat question" });
  const sites = siteCharges(payer, `chat-score:${question.id}`);
  return {
    question,
    chargeSites: sites.chargeSites,
    async settle(delivery) {
      await question.settle(delivery.answered ? 1 : 0);
      await sites.settle(delivery);
    },
  };
}

/** An approved call's answer: not charged as a question, only the scoring the person approved. */
export const approvalCharges = (payer: Payer, approvalId: string): SiteCharges =>
  siteCharges(payer, `chat-score:approval:${approvalId}`);
