// The memo a search sorted by value prices lots through: keys are compared whole, so tuples differing in any one
// number (NaN included) never share a value, and a full memo starts again rather than growing.
import { describe, expect, it } from "vitest";
import { TupleMemo } from "../../../src/search/tuple-memo.ts";

describe("a tuple memo", () => {
  it("keeps a value per distinct tuple, however close, NaN equal only to NaN", () => {
    const memo = new TupleMemo(3, 1000);
    const base = [4, 612.5, Number.NaN];
    const variants = [
      base,
      [4, 612.5, 0],
      [4, 612.5000001, Number.NaN],
      [5, 612.5, Number.NaN],
      [612.5, 4, Number.NaN],
    ];
    for (const [k, v] of variants.entries()) memo.set(Float64Array.from(v), k);
    for (const [k, v] of variants.entries()) expect(memo.get(Float64Array.from(v)), JSON.stringify(v)).toBe(k);
    expect(memo.get(Float64Array.from([4, 612.5, 1]))).toBeUndefined();
  });

  it("holds every tuple up to its size among many that hash alike, then starts again empty", () => {
    const memo = new TupleMemo(2, 500);
    for (let k = 0; k < 500; k++) memo.set(Float64Array.from([k / 64, 0]), k);
    for (let k = 0; k < 500; k++) expect(memo.get(Float64Array.from([k / 64, 0]))).toBe(k);
    memo.set(Float64Array.from([-1, -1]), 7);
    expect(memo.get(Float64Array.from([0, 0]))).toBeUndefined();
    expect(memo.get(Float64Array.from([-1, -1]))).toBe(7);
  });
});
