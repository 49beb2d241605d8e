// docs/scoring.md section 10: each worked example, every figure checked (area, frontage, policy, yield, factors, score).
import { describe, expect, it } from "vitest";
import { MODEL_VERSION, scoreSite } from "../../../src/scoring/index.ts";
import type { FeasibilityResult } from "../../../src/scoring/index.ts";
import { shownShape } from "../../../src/scoring/geometry.ts";
import { BATTLE_AXE_RING, BATTLE_AXE_STREET, EXAMPLES } from "./worked-examples.ts";
import { boundaryOnStreets } from "../../../src/geo/street-frontage.ts";

type Option = [permitted: boolean, dwellings: number, gfaM2: number | null, storeys: number | null];

type Figures = {
  area: number;
  frontage: number;
  policy: FeasibilityResult["policy"]["area"];
  housingPermitted: boolean;
  basis: FeasibilityResult["yieldBasis"];
  dwellings: number | null;
  uplift: number | null;
  units: number;
  gfa: number | null; // the floor space of the form the yield uses
  steps: [number, number, number, number]; // potential points, then what constraints, access and shape took
  factors: [number, number, number]; // constraints, access, shape
  score: number;
  rating: FeasibilityResult["rating"];
  options: Record<string, Option>;
  reasons: string[];
  regularity?: number; // 1 (a rectangle) unless given
  frontageBasis?: FeasibilityResult["frontageBasis"]; // estimated unless given
  existing?: FeasibilityResult["existing"]; // a house assumed unless given
};

function check(r: FeasibilityResult, f: Figures): void {
  expect(r.modelVersion).toBe(MODEL_VERSION);
  expect(r.areaM2).toBe(f.area);
  expect(r.frontageM).toBe(f.frontage);
  expect(r.regularity).toBe(f.regularity ?? 1);
  expect(r.frontageBasis).toBe(f.frontageBasis ?? "estimated");
  expect(r.existing).toEqual(f.existing ?? { kind: "house", dwellings: 1, assumed: true });
  expect(r.existingDwellings).toBe(r.existing.dwellings);
  expect(r.policy.area).toBe(f.policy);
  expect(r.housingPermitted).toBe(f.housingPermitted);
  expect(r.yieldBasis).toBe(f.basis);
  expect(r.dwellingYield).toBe(f.dwellings);
  expect(r.upliftDwellings).toBe(f.uplift);
  expect(r.upliftUnits).toBe(f.units);
  expect(r.gfaPotentialM2).toBe(f.gfa);
  expect(r.upliftFloorSpaceM2).toBeNull();
  expect(r.components.map((c) => c.points)).toEqual(f.steps);
  expect(r.components.slice(1).map((c) => c.factor)).toEqual(f.factors);
  expect(r.score).toBe(f.score);
  expect(r.components.reduce((s, c) => s + c.points, 0)).toBe(r.score);
  expect(r.rating).toBe(f.rating);
  expect(
    Object.fromEntries(r.yieldOptions.map((o) => [o.basis, [o.permitted, o.dwellings, o.gfaM2, o.storeys]])),
  ).toEqual(f.options);
  // The yield's floor space is its option's: one figure.
  const used = r.yieldOptions.find((o) => o.basis === r.yieldBasis && o.permitted);
  if (used) expect(used.gfaM2).toBe(r.gfaPotentialM2);
  for (const reason of f.reasons) expect(r.reasons).toContain(reason);
}

const R2_LAND_USE =
  "Land use: dwelling houses permitted with consent (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential); dual occupancies permitted with consent on land to which Chapter 6 applies (Housing SEPP 2021 s 166); multi dwelling housing, residential flat buildings and shop top housing left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential). What is left to the council is not counted: check the LEP.";
const STOREY = "3.1 m a storey and 1 m for the roof, Apartment Design Guide 2015 Part 4C";

describe("docs/scoring.md worked examples (issue 50: land use, height, an unsaturated score)", () => {
  it("1. a yield-1 lot: 564 m², 10 m frontage, 1.2 km from a station: no uplift, 0, low", () => {
    check(scoreSite(EXAMPLES.yieldOne), {
      area: 564,
      frontage: 10,
      policy: "none",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 282,
      steps: [0, 0, 0, 0],
      factors: [1, 0.87, 1],
      score: 0,
      rating: "low",
      options: { subdivision: [false, 1, 282, 2], dual_occupancy: [false, 2, 282, 2] },
      reasons: [
        R2_LAND_USE,
        "Subdivision not permitted (LEP cl 4.1): 564 m² ÷ 450 m² minimum lot size = 1 lot (2 needed).",
        "Dual occupancy not permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 564 m² ≥ 450 m², frontage 10 m < 12 m.",
        "No uplift: the controls permit no more than the 1 dwelling assumed to stand today, so the site is rated low.",
      ],
    });
  });

  it("2. a dual-occupancy lot 850 m from a station (s 166): +1 dwelling, 50 x 0.93 = 47, medium", () => {
    check(scoreSite(EXAMPLES.dualOccupancy), {
      area: 612,
      frontage: 15.2,
      policy: "none",
      housingPermitted: true,
      basis: "dual_occupancy",
      dwellings: 2,
      uplift: 1,
      units: 1,
      gfa: 306,
      steps: [50, 0, -3, 0],
      factors: [1, 0.93, 1],
      score: 47,
      rating: "medium",
      options: { subdivision: [false, 1, 306, 2], dual_occupancy: [true, 2, 306, 2] },
      reasons: [
        R2_LAND_USE,
        "Dual occupancy permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 612 m² ≥ 450 m², frontage 15.2 m ≥ 12 m.",
        "Uplift: 2 dwellings as dual occupancy, 1 beyond the 1 assumed today.",
        "850 m from Lewisham Station (train): access × 0.93 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
  });

  it("3. an R3 lot 350 m from a station: LMR inner, 2.2:1 held to 840 m² by the envelope, 7 apartments, 72, high", () => {
    check(scoreSite(EXAMPLES.r3NearStation), {
      area: 660,
      frontage: 22,
      policy: "lmr_inner",
      housingPermitted: true,
      basis: "mid_rise_apartments",
      dwellings: 7,
      uplift: 6,
      units: 6,
      gfa: 840,
      steps: [72, 0, 0, 0],
      factors: [1, 1, 1],
      score: 72,
      rating: "high",
      options: {
        subdivision: [false, 1, 594, 3],
        dual_occupancy: [false, 2, 594, 3],
        multi_dwelling: [true, 4, 480, 3],
        terraces: [true, 3, 360, 3],
        mid_rise_apartments: [true, 7, 840, 6],
      },
      reasons: [
        "Low and mid rise housing inner area: 350 m in a straight line from Petersham Station, walking not measured (no streets known) ≤ 400 m (Housing SEPP 2021 s 163); not checked: coastal hazard areas, flood-prone land in the Georges River and Hawkesbury-Nepean catchments, aircraft noise, pipelines, Schedule 12 stations, Accelerated TOD precincts and the exclusion map (Housing SEPP 2021 s 164(1)(b), (f), (h), (i), (k)-(m)).",
        "Land use: dwelling houses and dual occupancies left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R3 Medium Density Residential); multi dwelling housing permitted with consent (Standard Instrument LEP, Land Use Table, zone R3 Medium Density Residential); residential flat buildings and shop top housing permitted with consent in a low and mid rise housing area (Housing SEPP 2021 Ch 6). What is left to the council is not counted: check the LEP.",
        "Dual occupancy not counted (Housing SEPP 2021 s 168(2)): dual occupancies left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R3 Medium Density Residential), not counted: check the LEP; lot 660 m² ≥ 450 m², frontage 22 m ≥ 12 m.",
        `Townhouses (multi dwelling housing) permitted (Housing SEPP 2021 s 172(2)): lot 660 m² ≥ 600 m², frontage 22 m ≥ 12 m; FSR 0.90:1: 660 m² × 0.90:1 = 594 m²; 12 m = 3 storeys (${STOREY}) × 50% of 660 m² = 990 m²; floor space 594 m²; 660 m² ÷ 165 m² a townhouse = 4 sites × 120 m² = 480 m²; 480 m² ÷ 120 m² = 4 townhouses.`,
        "Terraces permitted (Housing SEPP 2021 s 172(3)): lot 660 m² ≥ 500 m², frontage 22 m ≥ 18 m; 3 terraces (165 m² and 6 m each).",
        `Mid-rise apartments permitted (Housing SEPP 2021 s 180(2)): FSR 2.20:1: 660 m² × 2.20:1 = 1,452 m²; 22 m = 6 storeys (${STOREY}), at most 6 by Housing SEPP 2021 s 175(2), 22 m wide and 30 m deep inside a 6 m front setback and side and rear setbacks of 6 m to storey 4, 9 m above (Apartment Design Guide 2015 Part 3F) = 840 m²; floor space 840 m², × 75% ÷ 85 m² = 7 apartments.`,
        "Uplift: 7 dwellings as mid-rise apartments, 6 beyond the 1 assumed today.",
      ],
    });
  });

  it("4. a heritage terrace: 137 m² in a conservation area: no uplift, 0, low", () => {
    check(scoreSite(EXAMPLES.heritageTerrace), {
      area: 137,
      frontage: 4.6,
      policy: "lmr_outer",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 69,
      steps: [0, 0, 0, 0],
      factors: [0.7, 0.99, 1],
      score: 0,
      rating: "low",
      options: {
        subdivision: [false, 0, 69, 2],
        dual_occupancy: [false, 2, 89, 2],
        multi_dwelling: [false, 0, 0, 2],
        terraces: [false, 0, 0, 2],
        low_rise_apartments: [false, 0, 110, 2],
      },
      reasons: [
        "Dual occupancy not permitted (Housing SEPP 2021 s 168(2)): lot 137 m² < 450 m², frontage 4.6 m < 12 m.",
        "Heritage conservation area over the lot (Newtown Conservation Area): potential × 0.70.",
      ],
    });
  });

  it("5. a flood-affected large lot: out of Chapter 6, so no s 166 dual occupancy; 4 lots, 65 x 0.70 x 0.95 = 44, low", () => {
    check(scoreSite(EXAMPLES.floodLargeLot), {
      area: 2000,
      frontage: 40,
      policy: "none",
      housingPermitted: true,
      basis: "subdivision",
      dwellings: 4,
      uplift: 3,
      units: 3,
      gfa: 1000,
      steps: [65, -19, -2, 0],
      factors: [0.7, 0.95, 1],
      score: 44,
      rating: "low",
      options: { subdivision: [true, 4, 1000, 2], dual_occupancy: [false, 2, 1000, 2] },
      reasons: [
        "Within 800 m of a Schedule 11 station or town centre, 700 m in a straight line from Arncliffe Station, walking not measured (no streets known), but outside the low and mid rise housing policy: 60% of the lot is flood-affected (50% or more) (Housing SEPP 2021 s 164(1)).",
        "Land use: dwelling houses permitted with consent (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential); dual occupancies, multi dwelling housing, residential flat buildings and shop top housing left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential); Housing SEPP 2021 s 166 does not apply here (Housing SEPP 2021 s 164(1)): 60% of the lot is flood-affected (50% or more). What is left to the council is not counted: check the LEP.",
        "Subdivision permitted (LEP cl 4.1): 2,000 m² ÷ 450 m² minimum lot size = 4 lots (2 needed).",
        "60% of the lot is flood-affected: potential × 0.70 (1 − 0.50 × 0.60).",
      ],
    });
  });

  it("6. an E1 site: shop top housing of 7 apartments above 800 m² of shops, shown but not scored: employment land, 0, low", () => {
    const r = scoreSite(EXAMPLES.e1Site);
    check(r, {
      existing: { kind: "employment", dwellings: 0, assumed: true },
      area: 800,
      frontage: 20,
      policy: "none",
      housingPermitted: true,
      basis: "shop_top_housing",
      dwellings: 7,
      uplift: 7,
      units: 7,
      gfa: 1600,
      steps: [0, 0, 0, 0],
      factors: [1, 1, 1],
      score: 0,
      rating: "low",
      options: { shop_top_housing: [true, 7, 1600, 3] },
      reasons: [
        "Land use: dwelling houses, dual occupancies, multi dwelling housing and residential flat buildings left to the council's LEP (Standard Instrument LEP, Land Use Table, zone E1 Local Centre); shop top housing permitted with consent (Standard Instrument LEP, Land Use Table, zone E1 Local Centre). What is left to the council is not counted: check the LEP.",
        "Shop top housing (shops below, apartments above) permitted (LEP cl 4.4): LEP FSR 2.00:1: 800 m² × 2.00:1 = 1,600 m²; ground floor shops or offices (4 m, housing storeys 3.1 m, Apartment Design Guide 2015 Part 4C) 800 m², 800 m² left for housing; 14 m less the 4 m ground floor and 1 m for the roof = 2 storeys above, built to the sides and the street with a rear setback of 6 m (Apartment Design Guide 2015 Part 3F) = 1,360 m²; housing 800 m², × 75% ÷ 85 m² = 7 apartments.",
        "Zone E1 is employment land: not assessed for housing, so rated low; its shop top housing (7 dwellings above the shops) is shown for information only.",
      ],
    });
    expect(r.existingDwellings).toBe(0);
    expect(r.zoneCategory).toBe("employment");
  });

  it("7. a TOD site 350 m from Ashfield: 2.5:1 held to 1,644 m² by the envelope, 14 apartments, 79, high", () => {
    check(scoreSite(EXAMPLES.todSite), {
      area: 960,
      frontage: 24,
      policy: "tod",
      housingPermitted: true,
      basis: "tod_apartments",
      dwellings: 14,
      uplift: 13,
      units: 13,
      gfa: 1644,
      steps: [79, 0, 0, 0],
      factors: [1, 1, 1],
      score: 79,
      rating: "high",
      options: {
        subdivision: [true, 2, 480, 2],
        dual_occupancy: [false, 2, 480, 2],
        tod_apartments: [true, 14, 1644, 6],
      },
      reasons: [
        "Transport oriented development area: 350 m in a straight line from Ashfield Station ≤ 400 m, as the Department maps the area (Housing SEPP 2021 s 151).",
        `Apartments under the TOD controls permitted (Housing SEPP 2021 Ch 5): frontage 24 m ≥ 21 m; FSR 2.50:1: 960 m² × 2.50:1 = 2,400 m²; 22 m = 6 storeys (${STOREY}), 24 m wide and 40 m deep inside a 6 m front setback and side and rear setbacks of 6 m to storey 4, 9 m above (Apartment Design Guide 2015 Part 3F) = 1,644 m²; floor space 1,644 m², × 75% ÷ 85 m² = 14 apartments.`,
        "Uplift: 14 dwellings as apartments under the TOD controls, 13 beyond the 1 assumed today.",
      ],
    });
  });

  it("8. a bushfire-prone lot near a station: out of Chapter 6, the dual occupancy left to the LEP; 0, low", () => {
    check(scoreSite(EXAMPLES.bushfireLot), {
      area: 700,
      frontage: 20,
      policy: "none",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 350,
      steps: [0, 0, 0, 0],
      factors: [0.7, 0.98, 1],
      score: 0,
      rating: "low",
      options: { subdivision: [false, 1, 350, 2], dual_occupancy: [false, 2, 350, 2] },
      reasons: [
        "Within 800 m of a Schedule 11 station or town centre, 500 m in a straight line from Wahroonga Station, walking not measured (no streets known), but outside the low and mid rise housing policy: 100% of the lot is bushfire-prone (Housing SEPP 2021 s 164(1)).",
        "Dual occupancy not counted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): dual occupancies left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential), not counted: check the LEP; lot 700 m² ≥ 450 m², frontage 20 m ≥ 12 m.",
        "100% of the lot is bushfire-prone: potential × 0.70 (1 − 0.30 × 1.00).",
      ],
    });
  });

  it("9. an R4 lot with a heritage item: 15 apartments under the LEP, 79 x 0.40 = 32, low", () => {
    check(scoreSite(EXAMPLES.r4HeritageItem), {
      area: 1000,
      frontage: 25,
      policy: "none",
      housingPermitted: true,
      basis: "apartments",
      dwellings: 15,
      uplift: 14,
      units: 14,
      gfa: 1800,
      steps: [79, -47, 0, 0],
      factors: [0.4, 1, 1],
      score: 32,
      rating: "low",
      options: { dual_occupancy: [false, 2, 1800, 6], apartments: [true, 15, 1800, 6] },
      reasons: [
        "Within 800 m of a Schedule 11 station or town centre, 300 m in a straight line from Stanmore Station, walking not measured (no streets known), but outside the low and mid rise housing policy: a heritage item is on the lot (Housing SEPP 2021 s 164(1)).",
        `Apartments under the LEP permitted (LEP cl 4.4): LEP FSR 1.80:1: 1,000 m² × 1.80:1 = 1,800 m²; 21 m = 6 storeys (${STOREY}), 25 m wide and 40 m deep inside a 6 m front setback and side and rear setbacks of 6 m to storey 4, 9 m above (Apartment Design Guide 2015 Part 3F) = 1,806 m²; floor space 1,800 m², × 75% ÷ 85 m² = 15 apartments.`,
        "Heritage item on the lot (Former bank): potential × 0.40.",
      ],
    });
  });

  it("10. a subdivisible lot 1.5 km from a station: 3 lots, 60 x 0.82 = 49, medium", () => {
    check(scoreSite(EXAMPLES.subdivision), {
      area: 1500,
      frontage: 30,
      policy: "none",
      housingPermitted: true,
      basis: "subdivision",
      dwellings: 3,
      uplift: 2,
      units: 2,
      gfa: 750,
      steps: [60, 0, -11, 0],
      factors: [1, 0.82, 1],
      score: 49,
      rating: "medium",
      options: { subdivision: [true, 3, 750, 2], dual_occupancy: [true, 2, 750, 2] },
      reasons: [
        "Subdivision permitted (LEP cl 4.1): 1,500 m² ÷ 450 m² minimum lot size = 3 lots (2 needed).",
        "1.5 km from Glenfield Station (train): access × 0.82 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
  });

  it("11. an E4 lot, 5,000 m² at FSR 1: housing prohibited, no yield, not assessed for housing, 0, low", () => {
    const r = scoreSite(EXAMPLES.e4Industrial);
    check(r, {
      existing: { kind: "employment", dwellings: 0, assumed: true },
      area: 5000,
      frontage: 50,
      policy: "none",
      housingPermitted: false,
      basis: "not_residential",
      dwellings: null,
      uplift: null,
      units: 0,
      gfa: null,
      steps: [0, 0, 0, 0],
      factors: [1, 0.92, 1],
      score: 0,
      rating: "low",
      options: {},
      reasons: [
        "Land use: residential accommodation prohibited (Standard Instrument LEP, Land Use Table, zone E4 General Industrial).",
        "Zone E4 is employment land on which the Standard Instrument permits no housing: not assessed for housing, so the site is rated low.",
      ],
    });
    expect(r.zoneCategory).toBe("employment");
    expect(r.existingDwellings).toBe(0);
    expect(r.reasons.join(" ")).not.toMatch(/Uplift|floor space/);
  });

  it("12. an R4 lot, 4,000 m² at FSR 1.5: 50 townhouses by FSR, 33 by 2 storeys in 9.5 m, 24 by site; 52 apartments, 84", () => {
    const r = scoreSite(EXAMPLES.r4Townhouses);
    check(r, {
      area: 4000,
      frontage: 50,
      policy: "lmr_outer",
      housingPermitted: true,
      basis: "mid_rise_apartments",
      dwellings: 52,
      uplift: 51,
      units: 51,
      gfa: 6000,
      steps: [87, 0, -3, 0],
      factors: [1, 0.97, 1],
      score: 84,
      rating: "high",
      options: {
        dual_occupancy: [false, 2, 4000, 2],
        multi_dwelling: [false, 24, 2880, 2],
        mid_rise_apartments: [true, 52, 6000, 4],
        apartments: [true, 45, 5168, 2],
      },
      reasons: [
        `Townhouses (multi dwelling housing) not counted (Housing SEPP 2021 s 172(2)): multi dwelling housing left to the council's LEP (Standard Instrument LEP, Land Use Table, zone R4 High Density Residential), not counted: check the LEP; lot 4,000 m² ≥ 600 m², frontage 50 m ≥ 12 m; FSR 1.50:1: 4,000 m² × 1.50:1 = 6,000 m²; 9.5 m = 2 storeys (${STOREY}) × 50% of 4,000 m² = 4,000 m²; floor space 4,000 m²; 4,000 m² ÷ 165 m² a townhouse = 24 sites × 120 m² = 2,880 m²; 2,880 m² ÷ 120 m² = 24 townhouses.`,
        `Mid-rise apartments permitted (Housing SEPP 2021 s 180(3)): FSR 1.50:1: 4,000 m² × 1.50:1 = 6,000 m²; 17.5 m = 5 storeys (${STOREY}), at most 4 by Housing SEPP 2021 s 176(2), 50 m wide and 80 m deep inside a 6 m front setback and side and rear setbacks of 6 m (Apartment Design Guide 2015 Part 3F) = 10,336 m²; floor space 6,000 m², × 75% ÷ 85 m² = 52 apartments.`,
        `Apartments under the LEP permitted (LEP cl 4.4): LEP FSR 1.50:1: 4,000 m² × 1.50:1 = 6,000 m²; 9.5 m = 2 storeys (${STOREY}), 50 m wide and 80 m deep inside a 6 m front setback and side and rear setbacks of 6 m (Apartment Design Guide 2015 Part 3F) = 5,168 m²; floor space 5,168 m², × 75% ÷ 85 m² = 45 apartments.`,
        "Uplift: 52 dwellings as mid-rise apartments, 51 beyond the 1 assumed today.",
      ],
    });
    const townhouses = r.yieldOptions.find((o) => o.basis === "multi_dwelling");
    // Held to the site: 24 townhouses, not the FSR's 50 (6,000 / 120) nor the height's 33 (4,000 / 120).
    expect(townhouses?.limitedBy).toBe("site");
    expect(townhouses?.dwellings).toBeLessThan(Math.floor(4000 / 120));
  });

  it("13. an R3 lot, 1,200 m², 24 m wide, 350 m from a TOD station: 19 apartments from 2,244 m², one figure, 81", () => {
    const r = scoreSite(EXAMPLES.r3Tod);
    check(r, {
      area: 1200,
      frontage: 24,
      policy: "tod",
      housingPermitted: true,
      basis: "tod_apartments",
      dwellings: 19,
      uplift: 18,
      units: 18,
      gfa: 2244,
      steps: [81, 0, 0, 0],
      factors: [1, 1, 1],
      score: 81,
      rating: "high",
      options: {
        subdivision: [false, 2, 900, 3],
        dual_occupancy: [false, 2, 900, 3],
        multi_dwelling: [true, 7, 840, 3],
        tod_apartments: [true, 19, 2244, 6],
      },
      reasons: [
        `Apartments under the TOD controls permitted (Housing SEPP 2021 Ch 5): frontage 24 m ≥ 21 m; FSR 2.50:1: 1,200 m² × 2.50:1 = 3,000 m²; 22 m = 6 storeys (${STOREY}), 24 m wide and 50 m deep inside a 6 m front setback and side and rear setbacks of 6 m to storey 4, 9 m above (Apartment Design Guide 2015 Part 3F) = 2,244 m²; floor space 2,244 m², × 75% ÷ 85 m² = 19 apartments.`,
        "Uplift: 19 dwellings as apartments under the TOD controls, 18 beyond the 1 assumed today.",
      ],
    });
    // 19 apartments are what 2,244 m² holds (2,244 × 75% ÷ 85 = 19.8), not the LEP's 900 m² (1,200 × 0.75).
    expect(Math.floor(((r.gfaPotentialM2 ?? 0) * 0.75) / 85)).toBe(r.dwellingYield);
    // The same lot 350 m from Meadowbank (Schedule 11, no TOD station): the inner area's 2.2:1, the same envelope, 19.
    const epping = scoreSite({
      ...EXAMPLES.r3Tod,
      nearestStop: { name: "Meadowbank Station", mode: "train", distanceM: 350 },
    });
    expect(epping.policy.area).toBe("lmr_inner");
    expect([epping.yieldBasis, epping.dwellingYield, epping.gfaPotentialM2]).toEqual(["mid_rise_apartments", 19, 2244]);
  });
});

describe("docs/scoring.md worked examples 14-16 (issue 50: the frontage on the street, what stands on the lot)", () => {
  it("14. a battle-axe R2 lot of 870 m²: frontage 6 m (its handle on the street), not the 25 m estimate, so no dual occupancy: 0, low", () => {
    // Only the handle's end lies on the street's reserve; the handle's sides run away from it.
    expect(boundaryOnStreets(BATTLE_AXE_RING, [BATTLE_AXE_STREET])).toEqual(new Map([["Example Street", 6]]));
    expect(shownShape(EXAMPLES.battleAxe.polygon).frontageM).toBe(25);
    const r = scoreSite(EXAMPLES.battleAxe);
    check(r, {
      area: 870,
      frontage: 6,
      frontageBasis: "street",
      regularity: 0.57,
      existing: { kind: "house", dwellings: 1, assumed: false },
      policy: "none",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 435,
      steps: [0, 0, 0, 0],
      factors: [1, 0.93, 0.88],
      score: 0,
      rating: "low",
      options: { subdivision: [false, 1, 435, 2], dual_occupancy: [false, 2, 435, 2] },
      reasons: [
        "Lot 870 m², frontage 6 m (its boundary on the street).",
        "Standing today, as recorded: a house (1 dwelling).",
        "Dual occupancy not permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 870 m² ≥ 450 m², frontage 6 m < 12 m.",
        "No uplift: the controls permit no more than a house, no more than the 1 dwelling standing today, so the site is rated low.",
        "Irregular lot shape (regularity 0.57, 1.00 is a rectangle): × 0.88.",
      ],
    });
    // Read with the estimate, the same lot would pass the dual occupancy's 12 m: 50 × 0.93 = 47 (46.5), × 0.88 = 41.
    const estimated = scoreSite({ ...EXAMPLES.battleAxe, shape: undefined });
    expect([estimated.frontageM, estimated.frontageBasis, estimated.yieldBasis, estimated.score]).toEqual([
      25,
      "estimated",
      "dual_occupancy",
      41,
    ]);
  });

  it("15. an R4 strata block of 24 units: 15 apartments permitted are fewer than stand, not a site to buy as a house, a collective sale of 18 of 24 owners: 0, low", () => {
    const r = scoreSite(EXAMPLES.strataBlock);
    check(r, {
      area: 1000,
      frontage: 25,
      existing: {
        kind: "strata",
        dwellings: 24,
        units: 24,
        strataPlan: "SP12345",
        collectiveSale: { clause: "Strata Schemes Development Act 2015 Pt 10", owners: 24, ownersNeeded: 18 },
        assumed: false,
      },
      policy: "none",
      housingPermitted: true,
      basis: "apartments",
      dwellings: 15,
      uplift: 0,
      units: 0,
      gfa: 1800,
      steps: [0, 0, 0, 0],
      factors: [1, 0.87, 1],
      score: 0,
      rating: "low",
      options: { dual_occupancy: [false, 2, 1800, 6], apartments: [true, 15, 1800, 6] },
      reasons: [
        "Standing today, as recorded: a strata building of 24 units (strata plan SP12345); not a site to buy as a house: acquiring it takes a collective sale, a strata renewal plan supported by the owners of at least 75% of its lots (18 of 24) (Strata Schemes Development Act 2015 Pt 10).",
        "No uplift: 15 dwellings as apartments under the LEP, no more than the 24 dwellings standing today, so the site is rated low.",
      ],
    });
    // With one house assumed, as before, the same lot gained 14: 79 points × 0.87 = 69 (68.7), medium.
    const assumed = scoreSite({ ...EXAMPLES.strataBlock, existing: undefined });
    expect([assumed.upliftDwellings, assumed.components[0]?.points, assumed.score, assumed.rating]).toEqual([
      14,
      79,
      69,
      "medium",
    ]);
  });

  it("16. a vacant R3 lot of 700 m²: no house to buy out, so all 4 townhouses are uplift: 69 × 0.87 = 60, medium", () => {
    const r = scoreSite(EXAMPLES.vacantR3);
    check(r, {
      area: 700,
      frontage: 20,
      existing: { kind: "vacant", dwellings: 0, assumed: false },
      policy: "none",
      housingPermitted: true,
      basis: "multi_dwelling",
      dwellings: 4,
      uplift: 4,
      units: 4,
      gfa: 480,
      steps: [69, 0, -9, 0],
      factors: [1, 0.87, 1],
      score: 60,
      rating: "medium",
      options: {
        subdivision: [false, 1, 525, 3],
        dual_occupancy: [false, 2, 525, 3],
        multi_dwelling: [true, 4, 480, 3],
      },
      reasons: [
        "Standing today, as recorded: nothing (the lot is vacant); no house to buy out, so every dwelling the controls permit is uplift.",
        "Uplift: 4 dwellings as townhouses (multi dwelling housing), 4 beyond the 0 dwellings standing today.",
      ],
    });
    // A house assumed on it leaves 3: 65 × 0.87 = 57 (56.55).
    const assumed = scoreSite({ ...EXAMPLES.vacantR3, existing: undefined });
    expect([assumed.upliftDwellings, assumed.score]).toEqual([3, 57]);
  });
});

describe("docs/scoring.md worked examples 17-19: where the Low and Mid-Rise policy applies (issue 50, item 2)", () => {
  it("17. R2 650 m², 150 m from a corner shop's E1, 3 km from a station: not a centre, no LMR area; 50 x 0.80 = 40, low", () => {
    const r = scoreSite(EXAMPLES.cornerShop);
    check(r, {
      area: 650,
      frontage: 13,
      policy: "none",
      housingPermitted: true,
      basis: "dual_occupancy",
      dwellings: 2,
      uplift: 1,
      units: 1,
      gfa: 325,
      steps: [50, 0, -10, 0],
      factors: [1, 0.8, 1],
      score: 40,
      rating: "low",
      options: { subdivision: [false, 1, 325, 2], dual_occupancy: [true, 2, 325, 2] },
      reasons: [
        "Not in a low and mid rise housing area: 2.6 km walking from Rouse Hill town centre (2.1 km in a straight line), the nearest town centre, beyond 800 m (Housing SEPP 2021 s 163).",
        R2_LAND_USE,
        "Dual occupancy permitted (Housing SEPP 2021 s 168(2) figures as a screen; outside a low and mid rise housing area the LEP governs): lot 650 m² ≥ 450 m², frontage 13 m ≥ 12 m.",
        "3.0 km from Riverstone Station (train): access × 0.80 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
    // The corner shop's E1 land is 150 m away and shown, but it is no town centre: the policy reads the designated one.
    expect(r.centreDistanceM).toBe(150);
    expect(r.policyArea).toEqual({
      kind: null,
      via: { kind: "centre", name: "Rouse Hill town centre", walkingM: 2600, straightM: 2100, basis: "walking" },
      excludedBy: [],
    });
  });

  it("18. R3 1,000 m² in Dubbo, 300 m from E2: outside the mapped centres and listed stations; LEP not confirmed, 0, low", () => {
    const r = scoreSite(EXAMPLES.regionalR3);
    check(r, {
      area: 1000,
      frontage: 25,
      policy: "none",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 750,
      steps: [0, 0, 0, 0],
      factors: [1, 0.92, 1],
      score: 0,
      rating: "low",
      options: {
        subdivision: [false, 2, 750, 3],
        dual_occupancy: [false, 2, 750, 3],
        multi_dwelling: [false, 6, 720, 3],
      },
      reasons: [
        "Not in a low and mid rise housing area: no station listed in Schedule 11 and no designated town centre was found near the lot (Housing SEPP 2021 s 163, Sch 11).",
        "No uplift: the controls permit no more than the 1 dwelling assumed to stand today, so the site is rated low.",
        "900 m from Dubbo Station (train): access × 0.92 (1 within 400 m, 0.80 from 1.6 km).",
      ],
    });
    expect(r.policyArea).toEqual({ kind: null, via: null, excludedBy: [] });
    expect(r.reach).toEqual({ station: null, centre: null });
  });

  it("19. R2 700 m² in Hawkesbury, 350 m walk from Windsor town centre: s 164(1)(e) excludes it; no s 166, 0, low", () => {
    const r = scoreSite(EXAMPLES.excludedCouncil);
    check(r, {
      area: 700,
      frontage: 20,
      policy: "none",
      housingPermitted: true,
      basis: "single_dwelling",
      dwellings: 1,
      uplift: 0,
      units: 0,
      gfa: 350,
      steps: [0, 0, 0, 0],
      factors: [1, 0.92, 1],
      score: 0,
      rating: "low",
      options: { subdivision: [false, 1, 350, 2], dual_occupancy: [false, 2, 350, 2] },
      reasons: [
        "Within 800 m of a Schedule 11 station or town centre, 350 m walking from Windsor town centre (280 m in a straight line), but outside the low and mid rise housing policy: the Hawkesbury council area is outside Chapter 6 (Housing SEPP 2021 s 164(1)).",
        "No uplift: the controls permit no more than the 1 dwelling assumed to stand today, so the site is rated low.",
      ],
    });
    expect(r.policyArea).toEqual({
      kind: null,
      via: { kind: "centre", name: "Windsor town centre", walkingM: 350, straightM: 280, basis: "walking" },
      excludedBy: ["the Hawkesbury council area is outside Chapter 6"],
    });
    // The same lot in Penrith's council: the inner area, by its walk (350 m), though 280 m is the straight line.
    const penrith = scoreSite({ ...EXAMPLES.excludedCouncil, lga: "Penrith" });
    expect(penrith.policyArea.kind).toBe("lmr_inner");
  });
});
