import { describe, expect, it } from "vitest";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { marginOverAsIs, type ResidualMemo } from "../../../src/value/margin.ts";
import { siteValue } from "../../../src/value/value-site.ts";
import type { ValueSite } from "../../../src/value/types.ts";
import { DUAL_OCCUPANCY, MID_RISE, TOWNHOUSES } from "./worked-examples.ts";

// The worked examples and variants a search meets side by side: same scheme elsewhere, other stands, other yields.
const SITES: ValueSite[] = [DUAL_OCCUPANCY, TOWNHOUSES, MID_RISE].flatMap((s) => [
  s,
  { ...s, suburb: "Parramatta" },
  { ...s, existing: { kind: "vacant", dwellings: 0, assumed: false } },
  { ...s, existing: { kind: "strata", dwellings: 4, units: 4, assumed: false } },
  { ...s, dwellings: (s.dwellings ?? 0) + 1 },
  { ...s, gfaM2: (s.gfaM2 ?? 0) + 10 },
  { ...s, areaM2: s.areaM2 + 50 },
]);

describe("a site's margin over as-is", () => {
  it("equals the score's margin_over_as_is for every site, solved afresh or from a memo shared by every site", () => {
    const memo: ResidualMemo = new Map();
    for (const round of [1, 2])
      for (const site of SITES) {
        const score = siteValue(site, DEFAULT_ASSUMPTIONS, 0).margin_over_as_is;
        expect(marginOverAsIs(site, DEFAULT_ASSUMPTIONS), `${site.suburb} ${site.yieldBasis}`).toBe(score);
        expect(marginOverAsIs(site, DEFAULT_ASSUMPTIONS, undefined, memo), `round ${round}`).toBe(score);
      }
    // The memo held one residual per suburb and scheme: a larger lot with the same scheme shares its neighbour's.
    expect(memo.size).toBe(SITES.length - 3);
  });
});
