// docs/scoring.md section 10: each worked example, every figure checked (area, frontage, policy, yield, factors, score).
import { describe, expect, it } from "vitest";
import { MODEL_VERSION, scoreSite } from "../../../src/scoring/index.ts";
import type { FeasibilityResult } from "../../../src/scoring/index.ts";
import { EXAMPLES } from "./worked-examples.ts";

type Figures = {
  area: number;
  frontage: number;
  policy: FeasibilityResult["policy"]["area"];
  basis: FeasibilityResult["yieldBasis"];
  dwellings: number | null;
  uplift: number | null;
  units: number;
  steps: [number, number, number, number]; // potential points, then what constraints, access and shape took
  factors: [number, number, number]; // constraints, access, shape
  score: number;
  rating: FeasibilityResult["rating"];
  options: Record<string, [boolean, number]>;
  reasons: string[];
};

function check(r: FeasibilityResult, f: Figures): void {
  expect(r.modelVersion).toBe(MODEL_VERSION);
  expect(r.areaM2).toBe(f.area);
  expect(r.frontageM).toBe(f.frontage);
  expect(r.regularity).toBe(1);
  expect(r.policy.area).toBe(f.policy);
  expect(r.yieldBasis).toBe(f.basis);
  expect(r.dwellingYield).toBe(f.dwellings);
  expect(r.upliftDwellings).toBe(f.uplift);
  expect(r.upliftUnits).toBe(f.units);
  expect(r.components.map((c) => c.points)).toEqual(f.steps);
  expect(r.components.slice(1).map((c) => c.factor)).toEqual(f.factors);
  expect(r.score).toBe(f.score);
  expect(r.components.reduce((s, c) => s + c.points, 0)).toBe(r.score);
  expect(r.rating).toBe(f.rating);
  expect(Object.fromEntries(r.yieldOptions.map((o) => [o.basis, [o.permitted, o.dwellings]]))).toEqual(f.options);
  for (const reason of f.reasons) expect(r.reasons).toContain(reason);
}

describe("docs/scoring.md worked examples (feasibility-v2)", () => {
  it("1. a yield-1 lot: 564 m², 10 m frontage, 1.2 km from a station: no uplift, 0, low", () => {
    check(scoreSite(EXAMPLES.yieldOne), {
      area: 564,
      frontage: 10,
      policy: "none",
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      steps: [0, 0, 0, 0],
      factors: [1, 0.87, 1],
      score: 0,
      rating: "low",
      options: { subdivision: [false, 1], dual_occupancy: [false, 2] },
      reasons: [
        "Subdivision not permitted (LEP cl 4.1): 564 m² ÷ 450 m² minimum lot size = 1 lot (2 needed).",
        "Dual occupancy not permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 564 m² ≥ 450 m², frontage 10 m < 12 m.",
        "No uplift: the controls permit no more than the 1 dwelling assumed to stand today, so the site is rated low.",
      ],
    });
  });

  it("2. a dual-occupancy lot 850 m from a station: +1 dwelling, 50 x 0.93 = 47, medium", () => {
    check(scoreSite(EXAMPLES.dualOccupancy), {
      area: 612,
      frontage: 15.2,
      policy: "none",
      basis: "dual_occupancy",
      dwellings: 2,
      uplift: 1,
      units: 1,
      steps: [50, 0, -3, 0],
      factors: [1, 0.93, 1],
      score: 47,
      rating: "medium",
      options: { subdivision: [false, 1], dual_occupancy: [true, 2] },
      reasons: [
        "Dual occupancy permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 612 m² ≥ 450 m², frontage 15.2 m ≥ 12 m.",
        "Uplift: 2 dwellings as dual occupancy, 1 beyond the 1 assumed today.",
        "850 m from Lewisham Station (train): access × 0.93 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
  });

  it("3. an R3 lot 350 m from a station: LMR inner area, 2.2:1, 12 apartments, 81, high", () => {
    check(scoreSite(EXAMPLES.r3NearStation), {
      area: 660,
      frontage: 22,
      policy: "lmr_inner",
      basis: "mid_rise_apartments",
      dwellings: 12,
      uplift: 11,
      units: 11,
      steps: [81, 0, 0, 0],
      factors: [1, 1, 1],
      score: 81,
      rating: "high",
      options: {
        subdivision: [false, 1],
        dual_occupancy: [true, 2],
        multi_dwelling: [true, 4],
        terraces: [true, 3],
        mid_rise_apartments: [true, 12],
      },
      reasons: [
        "Low and mid rise housing inner area: 350 m from Petersham Station ≤ 400 m (Housing SEPP 2021 s 163).",
        "Townhouses (multi dwelling housing) permitted (Housing SEPP 2021 s 172(2)): lot 660 m² ≥ 600 m², frontage 22 m ≥ 12 m; 660 m² × 0.90:1 = 594 m² ÷ 120 m² = 4 townhouses.",
        "Terraces permitted (Housing SEPP 2021 s 172(3)): lot 660 m² ≥ 500 m², frontage 22 m ≥ 18 m; 3 terraces (165 m² and 6 m each).",
        "Mid-rise apartments permitted (Housing SEPP 2021 s 180(2)): frontage 22 m ≥ 21 m; FSR 2.20:1: 660 m² × 2.20:1 = 1,452 m², × 75% ÷ 85 m² = 12 apartments.",
        "Uplift: 12 dwellings as mid-rise apartments, 11 beyond the 1 assumed today.",
      ],
    });
  });

  it("4. a heritage terrace: 137 m² in a conservation area: no uplift, 0, low", () => {
    check(scoreSite(EXAMPLES.heritageTerrace), {
      area: 137,
      frontage: 4.6,
      policy: "lmr_outer",
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      steps: [0, 0, 0, 0],
      factors: [0.7, 0.99, 1],
      score: 0,
      rating: "low",
      options: {
        subdivision: [false, 0],
        dual_occupancy: [false, 2],
        multi_dwelling: [false, 0],
        terraces: [false, 0],
        low_rise_apartments: [false, 0],
      },
      reasons: [
        "Dual occupancy not permitted (Housing SEPP 2021 s 168(2)): lot 137 m² < 450 m², frontage 4.6 m < 12 m.",
        "Heritage conservation area over the lot (Newtown Conservation Area): potential × 0.70.",
      ],
    });
  });

  it("5. a flood-affected large lot: 60% flood takes it out of the LMR area; 4 lots, 64 x 0.70 x 0.95 = 43, low", () => {
    check(scoreSite(EXAMPLES.floodLargeLot), {
      area: 2000,
      frontage: 40,
      policy: "none",
      basis: "subdivision",
      dwellings: 4,
      uplift: 3,
      units: 3,
      steps: [64, -19, -2, 0],
      factors: [0.7, 0.95, 1],
      score: 43,
      rating: "low",
      options: { subdivision: [true, 4], dual_occupancy: [true, 2] },
      reasons: [
        "Within 800 m of a station or centre (700 m from Tempe Station) but outside the low and mid rise housing policy: 60% of the lot is flood-affected (50% or more) (Housing SEPP 2021 s 164(1)).",
        "Subdivision permitted (LEP cl 4.1): 2,000 m² ÷ 450 m² minimum lot size = 4 lots (2 needed).",
        "60% of the lot is flood-affected: potential × 0.70 (1 − 0.50 × 0.60).",
      ],
    });
  });

  it("6. an E1 site: 1,200 m² more floor space = 10 units, 79, high", () => {
    const r = scoreSite(EXAMPLES.e1Site);
    check(r, {
      area: 800,
      frontage: 20,
      policy: "none",
      basis: "floor_space",
      dwellings: null,
      uplift: null,
      units: 10,
      steps: [79, 0, 0, 0],
      factors: [1, 1, 1],
      score: 79,
      rating: "high",
      options: { floor_space: [true, 0] },
      reasons: [
        "Floor space permitted (LEP cl 4.4): LEP FSR 2.00:1: 800 m² × 2.00:1 = 1,600 m², less 400 m² standing (0.50:1) = 1,200 m² more.",
        "Uplift: 1,200 m² of floor space beyond what is assumed to stand, about 10 units of 85 m² at 75%.",
      ],
    });
    expect(r.upliftFloorSpaceM2).toBe(1200);
    expect(r.existingDwellings).toBe(0);
    expect(r.zoneCategory).toBe("employment");
  });

  it("7. a TOD site 350 m from Ashfield: 2.5:1, 21 apartments, 88, high", () => {
    check(scoreSite(EXAMPLES.todSite), {
      area: 960,
      frontage: 24,
      policy: "tod",
      basis: "tod_apartments",
      dwellings: 21,
      uplift: 20,
      units: 20,
      steps: [88, 0, 0, 0],
      factors: [1, 1, 1],
      score: 88,
      rating: "high",
      options: { subdivision: [true, 2], dual_occupancy: [true, 2], tod_apartments: [true, 21] },
      reasons: [
        "Transport oriented development precinct: 350 m from Ashfield Station ≤ 400 m (Housing SEPP 2021 s 151).",
        "Apartments under the TOD controls permitted (Housing SEPP 2021 Ch 5): frontage 24 m ≥ 21 m; FSR 2.50:1: 960 m² × 2.50:1 = 2,400 m², × 75% ÷ 85 m² = 21 apartments.",
        "Uplift: 21 dwellings as apartments under the TOD controls, 20 beyond the 1 assumed today.",
      ],
    });
  });

  it("8. a bushfire-prone lot near a station: out of the LMR area; dual occupancy, 50 x 0.70 x 0.98 = 34, low", () => {
    check(scoreSite(EXAMPLES.bushfireLot), {
      area: 700,
      frontage: 20,
      policy: "none",
      basis: "dual_occupancy",
      dwellings: 2,
      uplift: 1,
      units: 1,
      steps: [50, -15, -1, 0],
      factors: [0.7, 0.98, 1],
      score: 34,
      rating: "low",
      options: { subdivision: [false, 1], dual_occupancy: [true, 2] },
      reasons: [
        "Within 800 m of a station or centre (500 m from Berowra Station) but outside the low and mid rise housing policy: 100% of the lot is bushfire-prone (Housing SEPP 2021 s 164(1)).",
        "100% of the lot is bushfire-prone: potential × 0.70 (1 − 0.30 × 1.00).",
      ],
    });
  });

  it("9. an R4 lot with a heritage item: 15 apartments under the LEP, 84 x 0.40 = 34, low", () => {
    check(scoreSite(EXAMPLES.r4HeritageItem), {
      area: 1000,
      frontage: 25,
      policy: "none",
      basis: "apartments",
      dwellings: 15,
      uplift: 14,
      units: 14,
      steps: [84, -50, 0, 0],
      factors: [0.4, 1, 1],
      score: 34,
      rating: "low",
      options: { dual_occupancy: [true, 2], apartments: [true, 15] },
      reasons: [
        "Within 800 m of a station or centre (300 m from Stanmore Station) but outside the low and mid rise housing policy: a heritage item is on the lot (Housing SEPP 2021 s 164(1)).",
        "Heritage item on the lot (Former bank): potential × 0.40.",
      ],
    });
  });

  it("10. a subdivisible lot 1.5 km from a station: 3 lots, 59 x 0.82 = 48, medium", () => {
    check(scoreSite(EXAMPLES.subdivision), {
      area: 1500,
      frontage: 30,
      policy: "none",
      basis: "subdivision",
      dwellings: 3,
      uplift: 2,
      units: 2,
      steps: [59, 0, -11, 0],
      factors: [1, 0.82, 1],
      score: 48,
      rating: "medium",
      options: { subdivision: [true, 3], dual_occupancy: [true, 2] },
      reasons: [
        "Subdivision permitted (LEP cl 4.1): 1,500 m² ÷ 450 m² minimum lot size = 3 lots (2 needed).",
        "1.5 km from Glenfield Station (train): access × 0.82 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
  });
});
