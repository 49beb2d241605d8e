// The land price found by secant steps is the one halving found (the largest whole dollar that fits), on schemes from
// a shortfall to past the premium duty threshold (that duty never falls as the price rises: duty.test.ts).
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../scripts/pack/random.ts";
import type { Assumptions } from "../../../src/value/assumptions.ts";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { NSW_DUTY_2025_26 } from "../../../src/value/duty/nsw-2025-26.ts";
import { landPrice, totalCost } from "../../../src/value/land-price.ts";

// The search the residual used before: halving [0, gross] to the largest L whose total fits.
function byHalving(fixed: number, gross: number, a: Assumptions): number {
  const total = (L: number) => totalCost(L, fixed, gross, a, NSW_DUTY_2025_26);
  if (total(0) > gross) return gross - total(0);
  let lo = 0;
  let hi = gross;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (total(mid) <= gross) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

describe("the land price", () => {
  it("is the largest whole dollar halving finds, on 20,000 schemes and assumptions", () => {
    const r = seededRandom(54);
    for (let k = 0; k < 20_000; k++) {
      const gross = Math.round(r() ** 2 * 40_000_000);
      // Fixed costs from nothing to more than the realisation (a shortfall), fractional as a fractional GFA makes them.
      const fixed = Math.round(r() * 1.2 * gross) + (k % 7 === 0 ? 0.5 : 0);
      const a: Assumptions = {
        ...DEFAULT_ASSUMPTIONS,
        finance_pct: Math.round(r() * 150) / 10,
        programme_months: 1 + Math.floor(r() * 48),
        margin_pct: Math.round(r() * 300) / 10,
        margin_basis: k % 2 === 0 ? "cost" : "realisation",
      };
      expect(landPrice(fixed, gross, a, NSW_DUTY_2025_26), `case ${k}: fixed ${fixed}, gross ${gross}`).toBe(
        byHalving(fixed, gross, a),
      );
    }
  });
});
