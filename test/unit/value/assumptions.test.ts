// The assumptions schema: a negative amount, a percentage of 100 or more, or a price of 0 is refused, naming the field.
import { describe, expect, it } from "vitest";
import { AssumptionsSchema, salePrice } from "../../../src/value/assumptions.ts";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";

const bad = (patch: Record<string, unknown>) => {
  const r = AssumptionsSchema.safeParse({ ...DEFAULT_ASSUMPTIONS, ...patch });
  return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
};

describe("valuation assumptions", () => {
  it("accepts the shipped defaults", () => {
    expect(AssumptionsSchema.safeParse(DEFAULT_ASSUMPTIONS).success).toBe(true);
  });

  it("refuses a negative amount, naming it", () => {
    expect(bad({ contributions_per_dwelling: -1 })).toEqual(["contributions_per_dwelling"]);
    expect(bad({ hpc_per_dwelling: -0.5 })).toEqual(["hpc_per_dwelling"]);
  });

  it("refuses a percentage of 100 or more, naming it", () => {
    expect(bad({ margin_pct: 100 })).toEqual(["margin_pct"]);
    expect(bad({ fees_pct: 150 })).toEqual(["fees_pct"]);
    expect(bad({ finance_pct: 99.9 })).toEqual([]);
  });

  it("refuses a price of 0, naming it down to the suburb and form", () => {
    const byS = { Newtown: { ...DEFAULT_ASSUMPTIONS.sale_price_m2.default, apartment: 0 } };
    expect(bad({ sale_price_m2: { default: DEFAULT_ASSUMPTIONS.sale_price_m2.default, by_suburb: byS } })).toEqual([
      "sale_price_m2.by_suburb.Newtown.apartment",
    ]);
    expect(bad({ build_cost_m2: { ...DEFAULT_ASSUMPTIONS.build_cost_m2, townhouse: 0 } })).toEqual([
      "build_cost_m2.townhouse",
    ]);
  });

  it("reads a suburb's own price, else the default", () => {
    expect(salePrice(DEFAULT_ASSUMPTIONS, "Epping", "apartment")).toBe(9_200);
    expect(salePrice(DEFAULT_ASSUMPTIONS, "Nowhere", "apartment")).toBe(
      DEFAULT_ASSUMPTIONS.sale_price_m2.default.apartment,
    );
    expect(salePrice(DEFAULT_ASSUMPTIONS, null, "house")).toBe(DEFAULT_ASSUMPTIONS.sale_price_m2.default.house);
  });
});
