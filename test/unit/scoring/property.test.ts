import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_DATA_REASON, ratingFor, scoreSite } from "../../../src/scoring/index.ts";
import type { SiteFacts } from "../../../src/scoring/index.ts";
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
        name: fc.string({ maxLength: 12 }),
        mode: fc.constantFrom("train", "bus", "ferry"),
        distanceM: fc.double({ min: 0, max: 10_000, noNaN: true }),
      }),
    ),
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
        for (const c of r.components) {
          expect(Number.isInteger(c.points)).toBe(true);
          expect(c.points).toBeGreaterThanOrEqual(0);
          expect(c.points).toBeLessThanOrEqual(c.maxPoints);
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
