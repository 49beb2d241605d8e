import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_DATA_REASON, ratingFor, scoreSite } from "../../../src/scoring/index.ts";
import type { SiteFacts } from "../../../src/scoring/index.ts";
import { constraintFactors, scoreSteps, upliftPoints } from "../../../src/scoring/components.ts";
import { ringAt } from "./sites.ts";

const share = fc.double({ min: 0, max: 1, noNaN: true });
const zoneArb = fc.record({
  code: fc.constantFrom("R1", "R2", "R3", "R4", "R5", "B4", "MU1", "E1", "IN1", "RE1", "SP2", "RU5", ""),
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
