// docs/valuation.md's three worked examples on the default assumptions, every line checked against the sums the page prints.
import { describe, expect, it } from "vitest";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { NSW_DUTY_2025_26 } from "../../../src/value/duty/nsw-2025-26.ts";
import { transferDuty } from "../../../src/value/duty/schedule.ts";
import type { SiteValue } from "../../../src/value/types.ts";
import { siteValue } from "../../../src/value/value-site.ts";
import { DUAL_OCCUPANCY, MID_RISE, TOWNHOUSES } from "./worked-examples.ts";

const lines = (v: SiteValue) => Object.fromEntries(v.costs.map((c) => [c.item, c.amount]));
const sum = (v: SiteValue) => v.costs.reduce((s, c) => s + c.amount, 0);

describe("worked example 1: a dual occupancy in Epping", () => {
  const v = siteValue(DUAL_OCCUPANCY, DEFAULT_ASSUMPTIONS, 0);
  it("prints every line as the page works it", () => {
    expect(v.gross_realisation).toBe(390 * 9_200); // 3,588,000
    expect(lines(v)).toEqual({
      construction: 390 * 2_400, // 936,000
      "professional fees": 93_600,
      "statutory fees": 9_360,
      "council contributions": 1 * 20_000,
      "housing and productivity contribution": 1 * 8_000,
      contingency: 46_800,
      marketing: 53_820, // 1.5% of 3,588,000
      "sales commission": 71_760,
      "finance on construction": 89_101, // 1,113,760 × 8% × 2 years × ½ = 89,100.80
      "finance on land": 229_180, // (1,374,752 + 57,626) × 16% = 229,180.48
      "transfer duty": 57_626, // 50,212 + 1,348 × 5.50
      "developer's margin": 598_001, // 20% of 2,989,999 is 597,999.80 → 598,000, and the $1 the whole dollar leaves
    });
    expect(v.rlv).toBe(1_374_752);
    expect(v.gross_realisation - sum(v)).toBe(v.rlv);
    expect(v.as_is).toBe(180 * 10_100); // a house of 180 m² at Epping's house price
    expect(v.margin_over_as_is).toBe(1_374_752 - 1_818_000);
    expect(v.per_dwelling).toBe(687_376);
    expect(v.sensitivity).toEqual({
      price_minus_10: 1_139_743,
      price_plus_10: 1_608_810,
      cost_minus_10: 1_470_571,
      cost_plus_10: 1_278_933,
    });
  });

  it("is the largest whole-dollar land price the scheme can pay: a dollar more does not fit", () => {
    const fixed = 1_113_760 + 53_820 + 71_760 + 89_101;
    const total = (L: number) => {
      const d = transferDuty(NSW_DUTY_2025_26, L);
      const fin = Math.round((L + d) * 0.16);
      const base = fixed + L + d + fin;
      return base + Math.round(base * 0.2);
    };
    expect(total(v.rlv)).toBeLessThanOrEqual(v.gross_realisation);
    expect(total(v.rlv + 1)).toBeGreaterThan(v.gross_realisation);
  });
});

describe("worked example 2: seven townhouses in Carlingford", () => {
  const v = siteValue(TOWNHOUSES, DEFAULT_ASSUMPTIONS, 0);
  it("prints every line as the page works it", () => {
    expect(v.gross_realisation).toBe(840 * 8_700); // 7,308,000
    expect(lines(v)).toEqual({
      construction: 840 * 3_400, // 2,856,000
      "professional fees": 285_600,
      "statutory fees": 28_560,
      "council contributions": 6 * 20_000,
      "housing and productivity contribution": 6 * 8_000,
      contingency: 142_800,
      marketing: 109_620,
      "sales commission": 146_160,
      "finance on construction": 278_477, // 3,480,960 × 8% = 278,476.80
      "finance on land": 286_177, // (1,712,407 + 76,199) × 16% = 286,176.96
      "transfer duty": 76_199, // 50,212 + 4,725 × 5.50 = 76,199.50, 50 cents down
      "developer's margin": 1_218_000,
    });
    expect(v.rlv).toBe(1_712_407);
    expect(v.gross_realisation - sum(v)).toBe(v.rlv);
    expect(v.as_is).toBe(180 * 10_100);
    expect(v.margin_over_as_is).toBe(-105_593);
    expect(v.per_dwelling).toBe(244_630);
  });
});

describe("worked example 3: a mid-rise site of 27 apartments in Eastwood", () => {
  const v = siteValue(MID_RISE, DEFAULT_ASSUMPTIONS, 0);
  it("prints every line as the page works it", () => {
    expect(v.gross_realisation).toBe(2_310 * 10_200); // 3,080 m² GFA × 75% saleable
    expect(lines(v)).toEqual({
      construction: 3_080 * 3_600, // 11,088,000
      "professional fees": 1_108_800,
      "statutory fees": 110_880,
      "council contributions": 26 * 20_000,
      "housing and productivity contribution": 26 * 8_000,
      contingency: 554_400,
      marketing: 353_430,
      "sales commission": 471_240,
      "finance on construction": 1_087_206, // 13,590,080 × 8% = 1,087,206.40
      "finance on land": 570_075, // (3,394,271 + 168,698) × 16% = 570,075.04
      "transfer duty": 168_698, // 50,212 + 21,543 × 5.50 = 168,698.50, 50 cents down
      "developer's margin": 3_927_000,
    });
    expect(v.rlv).toBe(3_394_271);
    expect(v.gross_realisation - sum(v)).toBe(v.rlv);
    expect(v.as_is).toBe(180 * 11_200);
    expect(v.margin_over_as_is).toBe(3_394_271 - 2_016_000);
    expect(v.per_dwelling).toBe(125_714);
  });
});
