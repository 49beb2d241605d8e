// A search sorted by value prices each lot through memos of its scheme's residual and of what stands on it (each keyed
// on its own inputs, far fewer distinct than a lot's): every lot's margin must still be the one its site's valuation
// gives, whichever lot first filled the memo.
import { describe, expect, it } from "vitest";
import { emptyValueColumns, marginReader, type PricedTable, valueSiteAt } from "../../../src/search/value-figures.ts";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { marginOverAsIs } from "../../../src/value/margin.ts";

// A deterministic stream of numbers in [0, 1).
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Lots over two priced suburbs, one unpriced, none and a code past the names; every yield basis and kind (codes 0 and
// past the lists too); dwellings, floor space and areas drawn from few values, so lots repeat each other's inputs.
function table(n: number): PricedTable {
  const r = random(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const priced = Object.keys(DEFAULT_ASSUMPTIONS.sale_price_m2.by_suburb).slice(0, 2);
  const names = [...priced, "Nowhere Special", null];
  const value = emptyValueColumns(n);
  const codes = new Uint16Array(n);
  const area = new Float32Array(n);
  const nan = Number.NaN;
  for (let i = 0; i < n; i++) {
    codes[i] = pick([0, 1, 2, 3, 4]);
    area[i] = pick([220.5, 450, 612.25, 900, 1800]);
    value.basis[i] = pick([0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16]);
    value.dwellings[i] = pick([nan, 0, 1, 2, 6, 24]);
    value.gfa[i] = pick([nan, 0, 180, 400, 1350]);
    value.existingKind[i] = pick([0, 1, 2, 3, 4, 5, 6]);
    value.existingDwellings[i] = pick([0, 1, 2, 8]);
    value.existingUnits[i] = pick([nan, 8, 12]);
    value.existingFloor[i] = pick([nan, 350, 1200]);
  }
  return { value, suburb: { codes, names }, area };
}

describe("a search's margin reader", () => {
  it("prices each of 5,000 lots, each asked twice, as marginOverAsIs prices its site, on the defaults and on an edit", () => {
    const t = table(5000);
    const edited = {
      ...DEFAULT_ASSUMPTIONS,
      build_cost_m2: { ...DEFAULT_ASSUMPTIONS.build_cost_m2, house: DEFAULT_ASSUMPTIONS.build_cost_m2.house * 2 },
    };
    let priced = 0;
    let none = 0;
    for (const a of [DEFAULT_ASSUMPTIONS, edited]) {
      const margin = marginReader(a);
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < 5000; i++) {
          const site = valueSiteAt(t, i);
          const want = site === null ? null : marginOverAsIs(site, a);
          expect(margin(t, i), `lot ${i}, pass ${pass}`).toBe(want);
          if (want === null) none++;
          else priced++;
        }
      }
    }
    // Both kinds of answer, many times over: the memos were filled and read.
    expect(priced).toBeGreaterThan(1000);
    expect(none).toBeGreaterThan(1000);
  });
});
