// The one price table: credits each paid operation costs (architecture section 5).
export const PRICES = {
  batchScorePerRow: 0.1,
  report: 0.5,
  chatQuestion: 0.05,
  geocode: 0,
} as const;

/** Cost of `n` units at `unit` credits each, exact to 4 decimal places (no 0.30000000000000004). */
export function costOf(n: number, unit: number): number {
  return Math.round(n * unit * 10_000) / 10_000;
}
