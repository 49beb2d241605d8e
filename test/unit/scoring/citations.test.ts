// The planning rules are data with their citations (issue 50, item 1): every Housing SEPP standard names its clause
// and commencement, and every reason that applies a rule names the clause it applied.
import { describe, expect, it } from "vitest";
import { scoreSite } from "../../../src/scoring/index.ts";
import {
  HOUSING_STANDARDS,
  LMR_AREA,
  LMR_EXCLUSIONS,
  MID_RISE_OUTER,
  TOD_AREA,
} from "../../../src/scoring/rules/housing-sepp.ts";
import { EXAMPLES } from "./worked-examples.ts";

const results = Object.values(EXAMPLES).map((f) => scoreSite(f));

describe("the Housing SEPP rules as data", () => {
  it("give every standard its clause, its commencement and zones", () => {
    for (const s of HOUSING_STANDARDS) {
      expect(s.clause).toMatch(/^Housing SEPP 2021 (s \d+\(\d+\)|Ch \d)$/);
      expect(s.commenced).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(s.zones.length).toBeGreaterThan(0);
    }
    expect(new Set(HOUSING_STANDARDS.map((s) => s.clause)).size).toBe(HOUSING_STANDARDS.length);
  });

  it("are what the scoring applies: the outer area's apartments at s 180(3)'s 1.5:1", () => {
    const outer = scoreSite({
      ...EXAMPLES.r3NearStation,
      nearestStop: { name: "Petersham", mode: "train", distanceM: 700 },
    });
    const option = outer.yieldOptions.find((o) => o.basis === "mid_rise_apartments");
    expect(option?.clause).toBe(MID_RISE_OUTER.clause);
    expect(option?.rule).toContain(`FSR ${MID_RISE_OUTER.maxFsr?.toFixed(2)}:1`);
  });
});

describe("every reason that applies a rule", () => {
  it("cites s 168(2) as applying only in a low and mid rise housing area, as a screen elsewhere", () => {
    const outside = scoreSite(EXAMPLES.yieldOne);
    expect(outside.policy.area).toBe("none");
    const dual = outside.reasons.find((x) => x.startsWith("Dual occupancy"));
    expect(dual).toContain("figures as a screen; outside a low and mid rise housing area the LEP governs");
    const inside = scoreSite(EXAMPLES.r3NearStation);
    expect(inside.policy.area).toBe("lmr_inner");
    expect(inside.yieldOptions.find((o) => o.basis === "dual_occupancy")?.clause).toBe("Housing SEPP 2021 s 168(2)");
  });

  it("names the clause of each form of housing it tested", () => {
    let tested = 0;
    for (const r of results) {
      for (const o of r.yieldOptions) {
        const reason = r.reasons.find((x) => x.includes(o.rule));
        expect(reason, `${r.lotId} ${o.basis}`).toContain(`(${o.clause}):`);
        tested++;
      }
    }
    expect(tested).toBeGreaterThan(10);
  });

  it("names the clause of the policy area it placed the lot in, or of the exclusion that kept it out", () => {
    const want = { tod: TOD_AREA.clause, lmr_inner: LMR_AREA.clause, lmr_outer: LMR_AREA.clause };
    const seen = new Set<string>();
    for (const r of results) {
      const area = r.policy.area;
      if (area !== "none") {
        expect(
          r.reasons.some((x) => x.includes(`(${want[area]})`)),
          `${r.lotId} ${area}`,
        ).toBe(true);
        seen.add(area);
      } else if (r.policy.excludedBy !== null) {
        expect(
          r.reasons.some((x) => x.includes(r.policy.excludedBy as string) && x.includes(LMR_EXCLUSIONS.clause)),
        ).toBe(true);
        seen.add("excluded");
      }
    }
    // The worked examples reach a TOD precinct, an inner area and an exclusion.
    expect(seen.has("tod") && seen.has("lmr_inner") && seen.has("excluded")).toBe(true);
  });
});
