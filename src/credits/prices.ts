// The price table: what each paid operation costs in credits (design/architecture.md section 5, row "costs").
import type { ActionType } from "./entry.ts";

/** Credits per unit of each kind of charged work: a scored site, a report, a chat question. */
export const UNIT_PRICE: Readonly<Record<ActionType, number>> = {
  batch_score: 0.1,
  report: 0.5,
  chat: 0.05,
};

/** Cost of `n` units at `unit` credits each, exact to 4 decimal places (no 0.30000000000000004). */
export function costOf(n: number, unit: number): number {
  return Math.round(n * unit * 10_000) / 10_000;
}
