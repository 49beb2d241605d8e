// NSW transfer duty 2025-26 (Revenue NSW): each bracket's edge gives its base, a dollar over adds its rate on a $100.
import { describe, expect, it } from "vitest";
import { NSW_DUTY_2025_26 } from "../../../src/value/duty/nsw-2025-26.ts";
import { transferDuty } from "../../../src/value/duty/schedule.ts";

const duty = (v: number) => transferDuty(NSW_DUTY_2025_26, v);

describe("NSW transfer duty from 1 July 2025", () => {
  it("is dated data with its source", () => {
    expect(NSW_DUTY_2025_26.effectiveFrom).toBe("2025-07-01");
    expect(NSW_DUTY_2025_26.source).toContain("Revenue NSW");
  });

  it("charges nothing on nothing and at least $20 on anything", () => {
    expect([duty(0), duty(-5), duty(1), duty(1_600), duty(1_700)]).toEqual([0, 0, 20, 20, 21]);
  });

  it.each([
    // [value at a bracket's start, its base, a dollar over: base + one $100's rate, 50 cents down]
    [17_000, 212, 212 + 1],
    [37_000, 512, 512 + 2],
    [99_000, 1_597, 1_597 + 3],
    [372_000, 11_152, 11_152 + 4],
    [1_240_000, 50_212, 50_212 + 5],
  ])("gives the base at %i and one $100's rate a dollar over", (edge, base, over) => {
    expect(duty(edge)).toBe(base);
    expect(duty(edge + 1)).toBe(over);
    expect(duty(edge + 100)).toBe(over);
  });

  it("meets each next bracket's base at its edge from below (the brackets join)", () => {
    const b = NSW_DUTY_2025_26.brackets;
    for (let i = 1; i < b.length; i++) {
      const prev = b[i - 1];
      const next = b[i];
      if (!prev || !next || prev.from === 0) continue;
      expect(prev.base + ((next.from - prev.from) / 100) * prev.per100).toBe(next.base);
    }
  });

  it("charges premium property duty of $7 per $100 above the threshold, on the general duty at it", () => {
    // 50,212 + (3,636,000 − 1,240,000) ÷ 100 × 5.50 = 181,992
    expect(duty(3_636_000)).toBe(181_992);
    expect(duty(3_636_001)).toBe(181_999);
    expect(duty(3_636_100)).toBe(181_999);
    expect(duty(3_636_101)).toBe(182_006);
    expect(duty(5_000_000)).toBe(181_992 + 13_640 * 7);
  });

  it("never falls as the value rises", () => {
    let last = 0;
    for (let v = 0; v <= 4_000_000; v += 997) {
      const d = duty(v);
      expect(d).toBeGreaterThanOrEqual(last);
      last = d;
    }
  });
});
