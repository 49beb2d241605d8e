import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_DATA_REASON, ratingFor, scoreSite } from "../../../src/scoring/index.ts";
import type { SiteFacts } from "../../../src/scoring/index.ts";
import { constraintFactors, scoreSteps, upliftPoints } from "../../../src/scoring/components.ts";
import {
  APARTMENT_EFFICIENCY,
  AVERAGE_UNIT_M2,
  GROUND_COMMERCIAL_STOREY_M,
  RESIDENTIAL_STOREY_M,
  ROOF_ALLOWANCE_M,
  TOWNHOUSE_M2,
} from "../../../src/scoring/constants.ts";
import {
  DUAL_OCCUPANCY,
  type HousingStandard,
  LOW_RISE_FLATS,
  MID_RISE_INNER,
  MID_RISE_OUTER,
  MULTI_DWELLING,
  TERRACES,
  TOD_APARTMENTS,
  TOD_SHOP_TOP,
} from "../../../src/scoring/rules/housing-sepp.ts";
import { HOUSING_FORMS, LAND_USE_TABLES } from "../../../src/scoring/rules/land-use.ts";
import type { FeasibilityResult, YieldOption } from "../../../src/scoring/types.ts";
import { rectangle, ringAt } from "./sites.ts";

const share = fc.double({ min: 0, max: 1, noNaN: true });
const zoneArb = fc.record({
  code: fc.constantFrom(
    "R1",
    "R2",
    "R3",
    "R4",
    "R5",
    "B4",
    "MU1",
    "E1",
    "E2",
    "E3",
    "E4",
    "IN1",
    "RE1",
    "SP2",
    "SP4",
    "RU1",
    "RU5",
    "C4",
    "W4",
    "",
  ),
  name: fc.option(fc.string({ maxLength: 20 })),
  share,
  fsr: fc.option(fc.double({ min: 0, max: 8, noNaN: true })),
  heightM: fc.option(fc.double({ min: 0, max: 120, noNaN: true })),
  minLotSizeM2: fc.option(fc.double({ min: 0, max: 5000, noNaN: true })),
});

const areasArb = (max: number) =>
  fc.array(
    fc.record({ value: fc.double({ min: 0, max, noNaN: true }), share, label: fc.option(fc.string({ maxLength: 8 })) }),
    { maxLength: 3 },
  );
// Packs with separate control layers supply them; older packs leave them to the zones.
const controlsArb = fc.option(fc.record({ fsr: areasArb(8), heightM: areasArb(120), minLotSizeM2: areasArb(5000) }), {
  nil: undefined,
});

const siteArb: fc.Arbitrary<SiteFacts> = fc
  .record({
    lat: fc.double({ min: -43, max: -10, noNaN: true }),
    lon: fc.double({ min: 113, max: 153, noNaN: true }),
    width: fc.double({ min: 0, max: 300, noNaN: true }),
    depth: fc.double({ min: 0, max: 300, noNaN: true }),
    angle: fc.double({ min: 0, max: Math.PI, noNaN: true }),
    areaM2: fc.double({ min: 0, max: 200_000, noNaN: true }),
    zones: fc.array(zoneArb, { maxLength: 4 }),
    flood: share,
    bushfire: share,
    heritage: share,
    stop: fc.option(
      fc.record({
        name: fc.constantFrom("Ashfield Station", "Petersham Station", "Stop", ""),
        mode: fc.constantFrom("train", "metro", "bus", "ferry"),
        distanceM: fc.double({ min: 0, max: 3_000, noNaN: true }),
      }),
    ),
    centre: fc.option(fc.double({ min: 0, max: 2_000, noNaN: true }), { nil: undefined }),
    kind: fc.option(fc.record({ item: fc.boolean(), conservationArea: fc.boolean() }), { nil: undefined }),
    demoData: fc.boolean(),
    controls: controlsArb,
  })
  .map((g) => {
    const c = Math.cos(g.angle),
      s = Math.sin(g.angle);
    const corners: [number, number][] = [
      [0, 0],
      [g.width, 0],
      [g.width, g.depth],
      [0, g.depth],
    ];
    const ring = ringAt(
      g.lat,
      g.lon,
      corners.map(([x, y]): [number, number] => [x * c - y * s, x * s + y * c]),
    );
    return {
      lotId: null,
      areaM2: g.areaM2,
      polygon: { type: "Polygon" as const, coordinates: [ring] },
      zones: g.zones,
      hazards: { flood: g.flood, bushfire: g.bushfire },
      heritageShare: g.heritage,
      heritageNames: [],
      nearestStop: g.stop,
      demoData: g.demoData,
      ...(g.controls ? { controls: g.controls } : {}),
      ...(g.centre !== undefined ? { centreDistanceM: g.centre } : {}),
      ...(g.kind !== undefined ? { heritageKind: g.kind } : {}),
    };
  });

describe("scoreSite properties", () => {
  it("keeps the score in 0..100, equal to the sum of its components, with a consistent rating", () => {
    fc.assert(
      fc.property(siteArb, (facts) => {
        const r = scoreSite(facts);
        expect(Number.isInteger(r.score)).toBe(true);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(100);
        expect(r.components.reduce((a, c) => a + c.points, 0)).toBe(r.score);
        expect(r.components.reduce((a, c) => a + c.maxPoints, 0)).toBe(100);
        const [potential, ...factors] = r.components;
        expect(potential?.points).toBeGreaterThanOrEqual(0);
        expect(potential?.points).toBeLessThanOrEqual(100);
        for (const c of factors) {
          expect(Number.isInteger(c.points)).toBe(true);
          expect(c.points).toBeLessThanOrEqual(0);
          expect(c.factor).toBeGreaterThan(0);
          expect(c.factor).toBeLessThanOrEqual(1);
        }
        expect(r.rating).toBe(ratingFor(r.score));
        expect(r.regularity).toBeGreaterThanOrEqual(0);
        expect(r.regularity).toBeLessThanOrEqual(1);
        expect(r.reasons.length).toBeGreaterThan(0);
        expect(r.reasons.includes(DEMO_DATA_REASON)).toBe(facts.demoData);
      }),
      { numRuns: 500 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(siteArb, (facts) => {
        expect(JSON.stringify(scoreSite(facts))).toBe(JSON.stringify(scoreSite(structuredClone(facts))));
      }),
      { numRuns: 200 },
    );
  });

  it("never scores lower when a hazard shrinks", () => {
    fc.assert(
      fc.property(siteArb, share, (facts, less) => {
        const worse = scoreSite(facts);
        const better = scoreSite({
          ...facts,
          hazards: { ...facts.hazards, flood: Math.min(facts.hazards.flood, less) },
        });
        expect(better.score).toBeGreaterThanOrEqual(worse.score);
      }),
      { numRuns: 200 },
    );
  });
});

// Facts with the constraint added: each can only take potential away (or the policy with it).
const constrain = (f: SiteFacts, what: "flood" | "bushfire" | "item" | "area", by: number): SiteFacts => {
  const kind = f.heritageKind ?? { item: f.heritageShare > 0, conservationArea: false };
  if (what === "flood") return { ...f, hazards: { ...f.hazards, flood: Math.min(1, f.hazards.flood + by) } };
  if (what === "bushfire") return { ...f, hazards: { ...f.hazards, bushfire: Math.min(1, f.hazards.bushfire + by) } };
  const heritageKind = what === "item" ? { ...kind, item: true } : { ...kind, conservationArea: true };
  return { ...f, heritageShare: Math.max(f.heritageShare, 0.5), heritageKind };
};

describe("feasibility-v2 properties (issue 35)", () => {
  it("more permitted dwellings, all else equal, never lowers the score", () => {
    const units = fc.integer({ min: 0, max: 200 });
    fc.assert(
      fc.property(
        units,
        units,
        share,
        share,
        fc.boolean(),
        fc.option(fc.double({ min: 0, max: 5000, noNaN: true })),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (a, b, flood, bushfire, item, d, reg) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const c = constraintFactors(item ? "item" : null, flood, bushfire);
          const run = (n: number) =>
            scoreSteps({
              units: n,
              unitsText: "",
              constraints: c,
              heritageText: null,
              flood,
              bushfire,
              access: d === null ? null : { name: "S", mode: "train", distanceM: d },
              regularity: reg,
            }).score;
          expect(upliftPoints(hi)).toBeGreaterThanOrEqual(upliftPoints(lo));
          expect(run(hi)).toBeGreaterThanOrEqual(run(lo));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a higher FSR or a smaller minimum lot size (more permitted dwellings) never lowers a lot's score", () => {
    fc.assert(
      fc.property(siteArb, fc.double({ min: 1, max: 3, noNaN: true }), (facts, k) => {
        const base = { ...facts, controls: undefined };
        const more = {
          ...base,
          zones: base.zones.map((z) => ({
            ...z,
            fsr: z.fsr === null ? null : z.fsr * k,
            minLotSizeM2: z.minLotSizeM2 === null ? null : z.minLotSizeM2 / k,
          })),
        };
        const a = scoreSite(base);
        const b = scoreSite(more);
        expect(b.upliftUnits).toBeGreaterThanOrEqual(a.upliftUnits);
        expect(b.score).toBeGreaterThanOrEqual(a.score);
      }),
      { numRuns: 300 },
    );
  });

  it("adding a constraint (flood, bushfire, a heritage item or conservation area) never raises the score", () => {
    fc.assert(
      fc.property(
        siteArb,
        fc.constantFrom("flood", "bushfire", "item", "area") as fc.Arbitrary<"flood" | "bushfire" | "item" | "area">,
        share,
        (facts, what, by) => {
          expect(scoreSite(constrain(facts, what, by)).score).toBeLessThanOrEqual(scoreSite(facts).score);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a lot with no uplift is never rated above low", () => {
    fc.assert(
      fc.property(siteArb, (facts) => {
        const r = scoreSite(facts);
        if (r.upliftUnits === 0) {
          expect(r.score).toBe(0);
          expect(r.rating).toBe("low");
        }
      }),
      { numRuns: 500 },
    );
  });
});

// Zones whose land use table prohibits every form of housing the model counts.
const PROHIBITED = Object.values(LAND_USE_TABLES)
  .filter((t) => HOUSING_FORMS.every((f) => t.forms[f] === "prohibited"))
  .map((t) => t.zone);

// The most floor space and height an option may rely on: the LEP's, or the state standard it applied when higher.
function allowed(r: FeasibilityResult, o: YieldOption): { fsr: number | null; heightM: number | null } {
  const lmr = r.policy.area === "lmr_inner" || r.policy.area === "lmr_outer";
  const standards: Partial<Record<YieldOption["basis"], HousingStandard | null>> = {
    dual_occupancy: lmr ? DUAL_OCCUPANCY : null,
    multi_dwelling: lmr ? MULTI_DWELLING : null,
    terraces: TERRACES,
    low_rise_apartments: LOW_RISE_FLATS,
    mid_rise_apartments: r.policy.area === "lmr_inner" ? MID_RISE_INNER : MID_RISE_OUTER,
    tod_apartments: TOD_APARTMENTS,
    shop_top_housing: o.clause === TOD_SHOP_TOP.clause ? TOD_APARTMENTS : null,
  };
  const std = standards[o.basis] ?? null;
  const max = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  return { fsr: max(r.controls.fsr, std?.maxFsr ?? null), heightM: max(r.controls.heightM, std?.maxHeightM ?? null) };
}

const APARTMENT_FORMS: readonly string[] = [
  "low_rise_apartments",
  "mid_rise_apartments",
  "tod_apartments",
  "apartments",
  "shop_top_housing",
];

// Facts with the FSR and the height (zones' and layers') scaled: k ≥ 1 permits more floor space.
function scaled(f: SiteFacts, kFsr: number, kHeight: number): SiteFacts {
  const by = (k: number) => (a: { value: number; share: number; label: string | null }) => ({
    ...a,
    value: a.value * k,
  });
  return {
    ...f,
    zones: f.zones.map((z) => ({
      ...z,
      fsr: z.fsr === null ? null : z.fsr * kFsr,
      heightM: z.heightM === null ? null : z.heightM * kHeight,
    })),
    ...(f.controls
      ? { controls: { ...f.controls, fsr: f.controls.fsr.map(by(kFsr)), heightM: f.controls.heightM.map(by(kHeight)) } }
      : {}),
  };
}

// Lots where housing may be built, each a rectangle as wide as its frontage and as deep as its area needs, with
// controls from their own layers or from the zone (older packs), near or far from a station (a TOD one or not).
const housingSiteArb: fc.Arbitrary<SiteFacts> = fc
  .record({
    code: fc.constantFrom("R1", "R2", "R3", "R4", "MU1", "E1", "E2"),
    width: fc.double({ min: 4, max: 120, noNaN: true }),
    areaM2: fc.double({ min: 80, max: 20_000, noNaN: true }),
    fsr: fc.option(fc.double({ min: 0, max: 6, noNaN: true })),
    heightM: fc.option(fc.double({ min: 0, max: 90, noNaN: true })),
    minLot: fc.option(fc.double({ min: 200, max: 2000, noNaN: true })),
    layers: fc.boolean(),
    station: fc.option(
      fc.record({
        name: fc.constantFrom("Ashfield Station", "Petersham Station"),
        mode: fc.constant("train"),
        distanceM: fc.double({ min: 0, max: 2_000, noNaN: true }),
      }),
    ),
    flood: fc.constantFrom(0, 0.2, 0.6),
    bushfire: fc.constantFrom(0, 0.5),
  })
  .map((g) => {
    const depth = g.areaM2 / g.width;
    const area = (v: number | null) => (v === null ? [] : [{ value: v, share: 1, label: null }]);
    return {
      lotId: null,
      areaM2: g.areaM2,
      polygon: rectangle(-33.9, 151.18, g.width, depth),
      zones: [
        {
          code: g.code,
          name: null,
          share: 1,
          fsr: g.layers ? null : g.fsr,
          heightM: g.layers ? null : g.heightM,
          minLotSizeM2: g.layers ? null : g.minLot,
        },
      ],
      ...(g.layers ? { controls: { fsr: area(g.fsr), heightM: area(g.heightM), minLotSizeM2: area(g.minLot) } } : {}),
      hazards: { flood: g.flood, bushfire: g.bushfire },
      heritageShare: 0,
      heritageNames: [],
      nearestStop: g.station,
      demoData: false,
    };
  });

describe("feasibility v3 properties (issue 50: land use, height, an unsaturated score)", () => {
  it("no housing yield in a zone whose land use table prohibits housing", () => {
    expect(PROHIBITED).toEqual(expect.arrayContaining(["E4", "E5", "SP2", "RE1", "C1"]));
    fc.assert(
      fc.property(siteArb, fc.constantFrom(...PROHIBITED), share, (facts, code, fsr) => {
        const zones = [{ code, name: null, share: 1, fsr: fsr * 8, heightM: 40, minLotSizeM2: 450 }];
        const r = scoreSite({ ...facts, zones, controls: undefined });
        expect(r.housingPermitted).toBe(false);
        expect(r.yieldBasis).toBe("not_residential");
        expect(r.dwellingYield).toBeNull();
        expect(r.upliftUnits).toBe(0);
        expect(r.gfaPotentialM2).toBeNull();
        expect(r.yieldOptions).toEqual([]);
        expect(r.score).toBe(0);
        expect(r.rating).toBe("low");
        expect(r.reasons.some((x) => x.includes(`(${LAND_USE_TABLES[code]?.citation})`))).toBe(true);
      }),
      { numRuns: 300 },
    );
    // And wherever the land use permits no housing, whatever the zone.
    fc.assert(
      fc.property(siteArb, (facts) => {
        const r = scoreSite(facts);
        if (r.housingPermitted) return;
        expect(r.dwellingYield).toBeNull();
        expect(r.upliftUnits).toBe(0);
        expect(r.rating).toBe("low");
      }),
      { numRuns: 300 },
    );
  });

  it("a yield never exceeds what its height and FSR allow", () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.oneof(housingSiteArb, siteArb), (facts) => {
        const r = scoreSite(facts);
        const a = r.areaM2;
        for (const o of r.yieldOptions) {
          const { fsr, heightM } = allowed(r, o);
          const g = o.gfaM2;
          // Floor space is shown in whole m², rounded half up: at most half a m² over the exact product.
          const half = 0.5 + 1e-6;
          if (g !== null && fsr !== null) expect(g).toBeLessThanOrEqual(a * fsr + half);
          if (g !== null && o.storeys !== null) expect(g).toBeLessThanOrEqual(o.storeys * a + half);
          if (heightM !== null && o.storeys !== null && o.storeys > 0) {
            const built =
              o.basis === "shop_top_housing"
                ? GROUND_COMMERCIAL_STOREY_M + (o.storeys - 1) * RESIDENTIAL_STOREY_M
                : o.storeys * RESIDENTIAL_STOREY_M;
            expect(built + ROOF_ALLOWANCE_M).toBeLessThanOrEqual(heightM + 1e-6);
          }
          if (g !== null && o.dwellings > 0) {
            const each = APARTMENT_FORMS.includes(o.basis)
              ? AVERAGE_UNIT_M2 / APARTMENT_EFFICIENCY
              : o.basis === "multi_dwelling" || o.basis === "terraces"
                ? TOWNHOUSE_M2
                : 0;
            if (each === 0) continue; // houses and dual occupancies: a count, not a division of floor space
            expect(o.dwellings * each).toBeLessThanOrEqual(g + 1e-6);
            checked++;
          }
        }
        // The yield is its form's: its dwellings and its floor space.
        const used = r.yieldOptions.find((o) => o.permitted && o.basis === r.yieldBasis);
        if (used && r.upliftUnits > 0) {
          expect(r.dwellingYield).toBe(used.dwellings);
          expect(r.gfaPotentialM2).toBe(used.gfaM2);
        }
      }),
      { numRuns: 1000 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it("more permitted floor space (a higher FSR, a greater height, or both) never lowers a score", () => {
    const k = fc.double({ min: 1, max: 3, noNaN: true });
    fc.assert(
      fc.property(
        fc.oneof(housingSiteArb, siteArb),
        k,
        k,
        fc.constantFrom("fsr", "height", "both"),
        (facts, kf, kh, which) => {
          const more = scaled(facts, which === "height" ? 1 : kf, which === "fsr" ? 1 : kh);
          const a = scoreSite(facts);
          const b = scoreSite(more);
          expect(b.upliftUnits).toBeGreaterThanOrEqual(a.upliftUnits);
          expect(b.score).toBeGreaterThanOrEqual(a.score);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("does not saturate: more dwellings never score less, 52 and 77 apartments score apart, and 100 is not reached", () => {
    for (let n = 1; n < 5000; n++) expect(upliftPoints(n + 1)).toBeGreaterThanOrEqual(upliftPoints(n));
    expect(upliftPoints(100_000)).toBeLessThan(100);
    // 52 and 77 apartments on lots where one dwelling stands: 51 and 76 more.
    expect([upliftPoints(51), upliftPoints(76)]).toEqual([87, 88]);
    // The ratings keep their meaning: one more dwelling is medium, five more high (docs/scoring.md 8.4).
    expect([upliftPoints(1), upliftPoints(4), upliftPoints(5)]).toEqual([50, 69, 71]);
  });
});
