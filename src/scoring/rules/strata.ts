// The rule for acquiring a strata scheme whole (docs/scoring.md section 5.6): a collective sale under Part 10 of the
// Strata Schemes Development Act 2015, commenced 30 November 2016, needs a strata renewal plan the owners of at least
// 75% of the lots support (the NSW Registrar General's summary; the Act's text was not read, so the Part is cited).

export type CollectiveSaleRule = {
  /** As a reason cites it. */
  readonly clause: string;
  /** ISO date the Part commenced. */
  readonly commenced: string;
  /** Share of the scheme's lots whose owners must support the strata renewal plan. */
  readonly ownersShare: number;
};

export const COLLECTIVE_SALE: CollectiveSaleRule = {
  clause: "Strata Schemes Development Act 2015 Pt 10",
  commenced: "2016-11-30",
  ownersShare: 0.75,
};

/** The owners whose support a collective sale needs: the share of the lots, rounded up (15 of 20, 18 of 24). */
export function ownersNeeded(owners: number, rule: CollectiveSaleRule = COLLECTIVE_SALE): number {
  // Rounded to 1e-9 first: 0.75 × 24 is 18 exactly, and a float's last bit must not make it 19.
  return Math.ceil(Math.round(owners * rule.ownersShare * 1e9) / 1e9);
}
