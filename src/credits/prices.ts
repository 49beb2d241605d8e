// The price table and what one upload may buy (docs/design.md section 5, row "costs"). Pure: the web imports
// it as values to state costs, so it imports nothing but types from the wire contract.
import type { ActionType } from "../routes/schemas/billing.ts";

/** Credits per unit of each kind of charged work: a scored site, a report, a chat question. */
export const UNIT_PRICE: Readonly<Record<ActionType, number>> = {
  batch_score: 0.1,
  report: 0.5,
  chat: 0.05,
};

/** Sites one batch upload may hold (POST /batch/upload's CSV rows). */
export const MAX_BATCH_ROWS = 50;

/** Cost of `n` units at `unit` credits each, exact to 4 decimal places (no 0.30000000000000004). */
export function costOf(n: number, unit: number): number {
  return Math.round(n * unit * 10_000) / 10_000;
}
