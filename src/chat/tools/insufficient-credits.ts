// What a scoring call answers when the organisation cannot pay for it (score_sites, over lots or groups), and the
// one charging step both take.
import type { QuestionBudget } from "../budget.ts";
import type { SiteCharge } from "./context.ts";

export interface InsufficientCreditsOutput {
  error: "insufficient_credits";
  required: number;
  available: number;
  detail: string;
}

export type Paid = { charged: number; balance: number | null };

/**
 * Charges for the scores not yet paid in this question (`keys`, one a site or group) and claims them from the budget;
 * nothing charged and a zero charge when there are none, the refusal's output when the organisation is short.
 */
export async function payForScores(
  charge: SiteCharge,
  budget: QuestionBudget,
  keys: readonly string[],
  noun: "site" | "group",
): Promise<{ ok: true; paid: Paid } | { ok: false; output: InsufficientCreditsOutput }> {
  if (keys.length === 0) return { ok: true, paid: { charged: 0, balance: null } };
  const charged = await charge(keys.length);
  if (!charged.ok)
    return {
      ok: false,
      output: {
        error: "insufficient_credits",
        required: charged.required,
        available: charged.available,
        detail: `Scoring ${keys.length} ${noun}(s) costs ${charged.required} credits; the organisation has ${charged.available}.`,
      },
    };
  budget.charged(keys);
  return { ok: true, paid: charged };
}
