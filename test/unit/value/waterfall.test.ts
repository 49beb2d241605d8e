import { describe, expect, it } from "vitest";
import { dollars, waterfall, waterfallRange } from "../../../src/routes/schemas/value-waterfall.ts";

const value = {
  gross_realisation: 1_000_000,
  costs: [
    { item: "construction", amount: 600_000 },
    { item: "margin", amount: 500_000 },
  ],
  rlv: -100_000,
  as_is: 250_000,
};

describe("the residual's waterfall", () => {
  it("steps down from the realisation through each cost, each bar spanning what that cost takes", () => {
    const bars = waterfall(value);
    expect(bars.map((b) => [b.label, b.from, b.to, b.kind])).toEqual([
      ["Gross realisation", 0, 1_000_000, "gain"],
      ["Construction", 400_000, 1_000_000, "cost"],
      ["Margin", -100_000, 400_000, "cost"],
      ["Residual land value", 0, -100_000, "rlv"],
      ["As-is value (what stands)", 0, 250_000, "as-is"],
    ]);
    expect(bars[1]?.amount).toBe(-600_000);
  });

  it("its range holds every bar and zero, where a negative residual crosses it", () => {
    expect(waterfallRange(waterfall(value))).toEqual([-100_000, 1_000_000]);
  });
});

describe("dollars", () => {
  it("writes whole dollars with thousands separators and a true minus sign", () => {
    expect(dollars(1_234_567.4)).toBe("$1,234,567");
    expect(dollars(-1_234)).toBe("\u2212$1,234");
    expect(dollars(0)).toBe("$0");
  });
});
