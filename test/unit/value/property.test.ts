// Properties of the residual: it falls as costs rise, rises with the sale price, and its lines always add up.
import { describe, expect, it } from "vitest";
import type { Assumptions } from "../../../src/value/assumptions.ts";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { VALUE_FORMS } from "../../../src/value/forms.ts";
import { siteValue } from "../../../src/value/value-site.ts";
import { DUAL_OCCUPANCY, MID_RISE, TOWNHOUSES } from "./worked-examples.ts";

const SITES = [DUAL_OCCUPANCY, TOWNHOUSES, MID_RISE];
const scaled = (a: Assumptions, key: "build_cost_m2", k: number): Assumptions => ({
  ...a,
  [key]: Object.fromEntries(VALUE_FORMS.map((f) => [f, Math.round(a[key][f] * k)])) as Assumptions["build_cost_m2"],
});
const priced = (a: Assumptions, k: number): Assumptions => ({
  ...a,
  sale_price_m2: {
    default: Object.fromEntries(
      VALUE_FORMS.map((f) => [f, Math.round(a.sale_price_m2.default[f] * k)]),
    ) as Assumptions["build_cost_m2"],
    by_suburb: Object.fromEntries(
      Object.entries(a.sale_price_m2.by_suburb).map(([s, p]) => [
        s,
        Object.fromEntries(VALUE_FORMS.map((f) => [f, Math.round(p[f] * k)])) as Assumptions["build_cost_m2"],
      ]),
    ),
  },
});

describe("the residual land value", () => {
  it("falls as construction costs rise", () => {
    for (const site of SITES) {
      let last = Number.POSITIVE_INFINITY;
      for (let k = 0.5; k <= 2; k += 0.1) {
        const rlv = siteValue(site, scaled(DEFAULT_ASSUMPTIONS, "build_cost_m2", k), 0).rlv;
        expect(rlv, `${site.suburb} at ${k}`).toBeLessThan(last);
        last = rlv;
      }
    }
  });

  it("falls as each rate rises", () => {
    const rates = [
      "fees_pct",
      "contingency_pct",
      "marketing_pct",
      "commission_pct",
      "finance_pct",
      "margin_pct",
    ] as const;
    for (const site of SITES)
      for (const r of rates) {
        const low = siteValue(site, { ...DEFAULT_ASSUMPTIONS, [r]: 5 }, 0).rlv;
        const high = siteValue(site, { ...DEFAULT_ASSUMPTIONS, [r]: 25 }, 0).rlv;
        expect(high, `${site.suburb} ${r}`).toBeLessThan(low);
      }
  });

  it("rises with the sale price, and goes below zero when the scheme cannot pay for free land", () => {
    for (const site of SITES) {
      let last = Number.NEGATIVE_INFINITY;
      for (let k = 0.2; k <= 2; k += 0.1) {
        const v = siteValue(site, priced(DEFAULT_ASSUMPTIONS, k), 0);
        expect(v.rlv, `${site.suburb} at ${k}`).toBeGreaterThan(last);
        expect(v.gross_realisation - v.costs.reduce((s, c) => s + c.amount, 0)).toBe(v.rlv);
        last = v.rlv;
      }
      expect(siteValue(site, priced(DEFAULT_ASSUMPTIONS, 0.2), 0).rlv).toBeLessThan(0);
    }
  });

  it("orders its sensitivity figures around it", () => {
    for (const site of SITES) {
      const v = siteValue(site, DEFAULT_ASSUMPTIONS, 0);
      expect(v.sensitivity.price_minus_10).toBeLessThan(v.rlv);
      expect(v.sensitivity.price_plus_10).toBeGreaterThan(v.rlv);
      expect(v.sensitivity.cost_minus_10).toBeGreaterThan(v.rlv);
      expect(v.sensitivity.cost_plus_10).toBeLessThan(v.rlv);
    }
  });

  it("is none on a site whose yield builds nothing, and the margin is then what stands, lost", () => {
    const v = siteValue(
      {
        ...MID_RISE,
        yieldBasis: "not_residential",
        dwellings: null,
        gfaM2: null,
        existing: { kind: "employment", dwellings: 0, floorSpaceM2: 500, assumed: false },
      },
      DEFAULT_ASSUMPTIONS,
      3,
    );
    expect([v.rlv, v.costs.length, v.as_is, v.margin_over_as_is, v.assumptions_version]).toEqual([
      0,
      0,
      500 * 5_600,
      -500 * 5_600,
      3,
    ]);
  });
});
