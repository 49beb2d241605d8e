import { describe, expect, it } from "vitest";
import { DEMO_DATA_REASON, ratingFor, scoreSite } from "../../../src/scoring/index.ts";
import type { FeasibilityResult, ZoneShare } from "../../../src/scoring/index.ts";
import { NEWTOWN, rectangle, ringAt, site, workedExample } from "./sites.ts";

const { lat, lon } = NEWTOWN;

function points(r: FeasibilityResult): Record<string, number> {
  return Object.fromEntries(r.components.map((c) => [c.key, c.points]));
}

function zone(
  code: string,
  share: number,
  fsr: number | null,
  minLotSizeM2: number | null = null,
  heightM: number | null = null,
): ZoneShare {
  return { code, name: null, share, fsr, heightM, minLotSizeM2 };
}

describe("scoreSite: the worked example of docs/scoring.md", () => {
  const r = scoreSite(workedExample());

  it("measures the lot", () => {
    expect(r.areaM2).toBe(612);
    // 20 m x 30.6 m, built in the model's projection; the printed 7-decimal corners still round to the same figures.
    expect(scoreSite(site({ polygon: rectangle(lat, lon, 20, 30.6) })).frontageM).toBe(20);
    expect(r.frontageM).toBe(20);
    expect(r.regularity).toBe(1);
  });

  it("derives controls, floor space and yield", () => {
    expect(r.dominantZone?.code).toBe("R2");
    expect(r.zoneCategory).toBe("low_rise");
    expect(r.controls).toEqual({ fsr: 0.5, heightM: 8.5, minLotSizeM2: 450 });
    expect(r.gfaPotentialM2).toBe(306);
    expect(r.subdivision).toEqual({ lots: 1, possible: false });
    expect(r.dualOccupancy).toMatchObject({ eligible: true, zoneAllows: true, areaOk: true, frontageOk: true });
    expect(r.dwellingYield).toBe(2);
    expect(r.yieldBasis).toBe("dual_occupancy");
  });

  it("scores 25 + 24 + 14 + 15 = 78, rated high", () => {
    expect(points(r)).toEqual({
      development_potential: 25,
      site_constraints: 24,
      transport_access: 14,
      lot_geometry: 15,
    });
    expect(r.components.map((c) => c.maxPoints)).toEqual([40, 30, 15, 15]);
    expect(r.score).toBe(78);
    expect(r.rating).toBe("high");
  });

  it("explains itself in plain English", () => {
    expect(r.reasons).toEqual([
      "Zoned R2 Low Density Residential (100% of the lot).",
      "612 m², above the 580 m² dual occupancy minimum.",
      "Estimated frontage 20 m meets the 15 m dual occupancy minimum.",
      "Minimum lot size 450 m²: too small to subdivide.",
      "Estimated yield: 2 dwellings as a dual occupancy.",
      "38% of the lot is flood-affected.",
      "450 m from Newtown station (train).",
    ]);
    expect(r.demoData).toBe(false);
  });
});

describe("scoreSite: edge cases", () => {
  it("flags demo data first among the reasons", () => {
    const r = scoreSite(site({ demoData: true }));
    expect(r.demoData).toBe(true);
    expect(r.reasons[0]).toBe(DEMO_DATA_REASON);
    expect(r.reasons[0]).toMatch(/synthetic demo data/);
    expect(r.score).toBe(78);
  });

  it("still scores a lot with no planning zone", () => {
    const r = scoreSite(site({ zones: [] }));
    expect(r.dominantZone).toBeNull();
    expect(r.zoneCategory).toBeNull();
    expect(r.yieldBasis).toBe("no_zone");
    expect(r.dwellingYield).toBeNull();
    expect(r.dualOccupancy.eligible).toBe(false);
    expect(points(r)).toEqual({
      development_potential: 0,
      site_constraints: 24,
      transport_access: 14,
      lot_geometry: 15,
    });
    expect(r.score).toBe(53);
    expect(r.rating).toBe("medium");
    expect(r.reasons.join(" ")).toMatch(/no planning zone found/i);
  });

  it("handles a zero-area lot with no geometry", () => {
    const r = scoreSite(site({ areaM2: 0, polygon: { type: "Polygon", coordinates: [] } }));
    expect(r.areaM2).toBe(0);
    expect(r.frontageM).toBe(0);
    expect(r.regularity).toBe(0);
    expect(r.gfaPotentialM2).toBe(0);
    expect(r.dwellingYield).toBe(0);
    expect(r.yieldBasis).toBe("too_small");
    expect(r.score).toBe(0 + 24 + 14 + 0);
    expect(r.rating).toBe("low");
  });

  it("treats a negative or non-finite area as zero", () => {
    expect(scoreSite(site({ areaM2: -5 })).areaM2).toBe(0);
    expect(scoreSite(site({ areaM2: Number.NaN })).areaM2).toBe(0);
  });

  it("counts no dwelling on a tiny lot", () => {
    const r = scoreSite(site({ areaM2: 50, polygon: rectangle(lat, lon, 5, 10) }));
    expect(r.dwellingYield).toBe(0);
    expect(r.reasons).toContain("The lot is under 100 m², too small for a dwelling.");
    expect(r.reasons).toContain("50 m², below the 580 m² dual occupancy minimum.");
    expect(r.reasons).toContain("Estimated frontage 5 m is below the 15 m dual occupancy minimum.");
  });

  it("keeps going with a null FSR and height", () => {
    const r = scoreSite(site({ zones: [zone("R2", 1, null, 450, null)] }));
    expect(r.controls).toEqual({ fsr: null, heightM: null, minLotSizeM2: 450 });
    expect(r.gfaPotentialM2).toBeNull();
    expect(r.dwellingYield).toBe(2);
  });

  it("estimates apartments from floor space in R4", () => {
    const r = scoreSite(
      site({
        areaM2: 1000,
        polygon: rectangle(lat, lon, 25, 40),
        zones: [zone("R4", 1, 1.8, null, 21)],
        hazards: { flood: 0, bushfire: 0 },
        nearestStop: { name: "Stanmore station", mode: "train", distanceM: 300 },
      }),
    );
    expect(r.gfaPotentialM2).toBe(1800);
    expect(r.dwellingYield).toBe(15); // floor(1800 x 0.75 / 85) = floor(15.88)
    expect(r.yieldBasis).toBe("apartments");
    expect(points(r)).toEqual({
      development_potential: 37,
      site_constraints: 30,
      transport_access: 15,
      lot_geometry: 15,
    });
    expect(r.score).toBe(97);
    expect(r.reasons).toContain(
      "FSR 1.80:1 allows about 1,800 m² of floor space, roughly 15 apartments (75% efficiency, 85 m² average).",
    );
  });

  it("gives an apartment zone without FSR the unknown-yield points", () => {
    const r = scoreSite(site({ zones: [zone("MU1", 1, null)] }));
    expect(r.dwellingYield).toBeNull();
    expect(r.yieldBasis).toBe("no_fsr");
    expect(points(r)["development_potential"]).toBe(10);
  });

  it("weights FSR by zone share on a split-zoned lot", () => {
    const r = scoreSite(site({ areaM2: 1000, zones: [zone("RE1", 0.4, null), zone("R4", 0.6, 2, null, 18)] }));
    expect(r.zones.map((z) => z.code)).toEqual(["R4", "RE1"]);
    expect(r.dominantZone?.code).toBe("R4");
    expect(r.controls).toEqual({ fsr: 1.2, heightM: 18, minLotSizeM2: null });
    expect(r.gfaPotentialM2).toBe(1200);
    expect(r.dwellingYield).toBe(10);
    expect(r.reasons).toContain("Split zoning: R4 60%, RE1 40%; R4 is dominant.");
  });

  it("breaks a tie between zones by code", () => {
    const r = scoreSite(site({ zones: [zone("R3", 0.5, 0.7), zone("R2", 0.5, 0.5)] }));
    expect(r.dominantZone?.code).toBe("R2");
    expect(r.controls.fsr).toBe(0.6);
  });

  it("normalises zone codes and drops zones that round to no share", () => {
    const r = scoreSite(site({ zones: [zone(" r2 Low Density Residential", 0.996, 0.5), zone("SP2", 0.004, null)] }));
    expect(r.zones).toHaveLength(1);
    expect(r.zones[0]?.code).toBe("R2");
    expect(r.zones[0]?.share).toBe(1);
  });

  it("finds no dwelling yield in a non-residential zone", () => {
    const r = scoreSite(site({ zones: [zone("IN1", 1, 1)] }));
    expect(r.yieldBasis).toBe("not_residential");
    expect(points(r)["development_potential"]).toBe(0);
    expect(r.reasons).toContain("Zone IN1 is not a residential zone; no dwelling yield estimated.");
    expect(r.reasons).toContain("Lot area 612 m².");
  });

  it("prefers subdivision when it yields more than a dual occupancy", () => {
    const big = { areaM2: 1000, polygon: rectangle(lat, lon, 25, 40) };
    const two = scoreSite(site({ ...big, zones: [zone("R2", 1, 0.5, 450)] }));
    expect(two.subdivision).toEqual({ lots: 2, possible: true });
    expect(two.yieldBasis).toBe("dual_occupancy");
    const three = scoreSite(site({ ...big, zones: [zone("R2", 1, 0.5, 300)] }));
    expect(three.dwellingYield).toBe(3);
    expect(three.yieldBasis).toBe("subdivision");
    expect(points(three)["development_potential"]).toBe(32);
    expect(three.reasons).toContain("Room for 3 lots at the 300 m² minimum lot size: subdivision possible.");
  });

  it("falls back to subdivision into two when dual occupancy fails on frontage", () => {
    const r = scoreSite(
      site({ areaM2: 1000, polygon: rectangle(lat, lon, 12, 83.3), zones: [zone("R2", 1, 0.5, 450)] }),
    );
    expect(r.frontageM).toBe(12);
    expect(r.dualOccupancy.frontageOk).toBe(false);
    expect(r.dwellingYield).toBe(2);
    expect(r.yieldBasis).toBe("subdivision");
  });

  it("scores a MultiPolygon lot over all its parts", () => {
    const a = ringAt(lat, lon, [
      [-15, -5],
      [-5, -5],
      [-5, 5],
      [-15, 5],
    ]);
    const b = ringAt(lat, lon, [
      [5, -5],
      [15, -5],
      [15, 5],
      [5, 5],
    ]);
    const r = scoreSite(site({ areaM2: 200, polygon: { type: "MultiPolygon", coordinates: [[a], [b]] } }));
    expect(r.frontageM).toBe(10);
    expect(r.regularity).toBe(0.67);
    // frontage 8 x 10/15 = 5.33 plus regularity 7 x (0.67 - 0.5)/0.4 = 2.975 -> 8.31 -> 8
    expect(points(r)["lot_geometry"]).toBe(8);
    expect(r.reasons).toContain("Irregular lot shape (regularity 0.67, 1.00 is a rectangle).");
  });

  it("deducts flood, bushfire and heritage and never goes below zero", () => {
    const some = scoreSite(
      site({ hazards: { flood: 0.1, bushfire: 0.2 }, heritageShare: 0.4, heritageNames: ["Terrace house"] }),
    );
    // 30 - 15 x 0.1 - 10 x 0.2 - 10 x 0.4 = 22.5 -> 23 (halves round up)
    expect(points(some)["site_constraints"]).toBe(23);
    expect(some.reasons).toContain("10% of the lot is flood-affected.");
    expect(some.reasons).toContain("20% of the lot is bushfire-prone.");
    expect(some.reasons).toContain("40% of the lot is under a heritage item (Terrace house).");
    const all = scoreSite(site({ hazards: { flood: 1, bushfire: 1 }, heritageShare: 1 }));
    expect(points(all)["site_constraints"]).toBe(0);
    const none = scoreSite(site({ hazards: { flood: 0, bushfire: 0 } }));
    expect(none.reasons).toContain("No flood or bushfire overlay on the lot.");
  });

  it("rounds and clamps shares as shown", () => {
    const r = scoreSite(site({ hazards: { flood: 0.384, bushfire: 1.7 }, heritageShare: -0.2 }));
    expect(r.hazards).toEqual({ flood: 0.38, bushfire: 1 });
    expect(r.heritage.share).toBe(0);
  });

  it("scales transport points with distance", () => {
    const at = (distanceM: number) =>
      points(scoreSite(site({ nearestStop: { name: "Stop", mode: "bus", distanceM } })))["transport_access"];
    expect(at(0)).toBe(15);
    expect(at(400)).toBe(15);
    expect(at(1000)).toBe(8); // 15 x 600/1200 = 7.5, halves round up
    expect(at(1600)).toBe(0);
    expect(at(5000)).toBe(0);
    expect(points(scoreSite(site({ nearestStop: null })))["transport_access"]).toBe(0);
    expect(scoreSite(site({ nearestStop: null })).reasons).toContain("No public transport stop found nearby.");
    const far = scoreSite(site({ nearestStop: { name: "Central", mode: "train", distanceM: 1234.4 } }));
    expect(far.transport?.distanceM).toBe(1234);
    expect(far.reasons).toContain("1.2 km from Central (train).");
  });
});

describe("ratingFor", () => {
  it("uses 70 and 45 as thresholds", () => {
    expect(ratingFor(100)).toBe("high");
    expect(ratingFor(70)).toBe("high");
    expect(ratingFor(69)).toBe("medium");
    expect(ratingFor(45)).toBe("medium");
    expect(ratingFor(44)).toBe("low");
    expect(ratingFor(0)).toBe("low");
  });
});

describe("determinism", () => {
  it("returns identical output for identical input", () => {
    const a = JSON.stringify(scoreSite(workedExample()));
    const b = JSON.stringify(scoreSite(workedExample()));
    expect(a).toBe(b);
  });

  it("does not depend on zone order or mutate its input", () => {
    const facts = site({ zones: [zone("RE1", 0.4, null), zone("R4", 0.6, 2)] });
    const before = JSON.stringify(facts);
    const a = scoreSite(facts);
    const b = scoreSite({ ...facts, zones: facts.zones.slice().reverse() });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(facts)).toBe(before);
  });
});

describe("scoreSite: controls from their own layers (FSR, height, lot size mapped apart from zoning)", () => {
  const area = (value: number, s: number, label: string | null = null) => ({ value, share: s, label });
  const r4 = zone("R4", 1, null);
  const big = { areaM2: 1000, polygon: rectangle(lat, lon, 25, 40), hazards: { flood: 0, bushfire: 0 } };

  it("applies each FSR to its part of a split lot and says so", () => {
    const r = scoreSite(
      site({
        ...big,
        zones: [r4],
        controls: { fsr: [area(0.5, 0.4), area(3, 0.6)], heightM: [area(22, 1, "21-22.9")], minLotSizeM2: [] },
      }),
    );
    expect(r.controls).toEqual({ fsr: 2, heightM: 22, minLotSizeM2: null });
    expect(r.controlAreas.fsr).toEqual([area(3, 0.6), area(0.5, 0.4)]);
    expect(r.gfaPotentialM2).toBe(2000);
    expect(r.dwellingYield).toBe(17); // floor(2000 x 0.75 / 85) = floor(17.6)
    expect(r.reasons).toContain(
      "Split FSR: 3.00:1 on 60% and 0.50:1 on 40% of the lot; each applies to its part, 2.00:1 over the lot.",
    );
    expect(r.reasons.join(" ")).not.toMatch(/height limit/);
  });

  it("takes the height and minimum lot size of the area covering most of the lot", () => {
    const r = scoreSite(
      site({
        ...big,
        zones: [zone("R2", 1, null)],
        controls: {
          fsr: [area(0.5, 1)],
          heightM: [area(8.5, 0.3), area(9.5, 0.7)],
          minLotSizeM2: [area(450, 0.55), area(700, 0.45)],
        },
      }),
    );
    expect(r.controls).toEqual({ fsr: 0.5, heightM: 9.5, minLotSizeM2: 450 });
    expect(r.subdivision).toEqual({ lots: 2, possible: true });
    expect(r.reasons).toContain(
      "Split height limit: 9.5 m on 70% and 8.5 m on 30% of the lot; the 9.5 m limit of the largest area is used.",
    );
    expect(r.reasons).toContain(
      "Split minimum lot size: 450 m² on 55% and 700 m² on 45% of the lot; the 450 m² minimum of the largest area is used.",
    );
    expect(r.reasons.join(" ")).not.toMatch(/Split FSR/);
  });

  it("breaks an even split toward the stricter control, and merges areas of equal value", () => {
    const r = scoreSite(
      site({
        ...big,
        zones: [zone("R2", 1, null)],
        controls: { fsr: [], heightM: [area(12, 0.5), area(9, 0.5)], minLotSizeM2: [area(450, 0.5), area(600, 0.5)] },
      }),
    );
    expect(r.controls.heightM).toBe(9);
    expect(r.controls.minLotSizeM2).toBe(600);
    const merged = scoreSite(
      site({
        ...big,
        zones: [zone("R2", 1, null)],
        controls: { fsr: [area(0.5, 0.5), area(0.5, 0.5)], heightM: [], minLotSizeM2: [] },
      }),
    );
    expect(merged.controlAreas.fsr).toEqual([area(0.5, 1)]);
    expect(merged.reasons.join(" ")).not.toMatch(/FSR:/);
  });

  it("says when a control covers only part of the lot, and counts no floor space on the rest", () => {
    const r = scoreSite(
      site({ ...big, zones: [r4], controls: { fsr: [area(2, 0.6)], heightM: [], minLotSizeM2: [] } }),
    );
    expect(r.controls.fsr).toBe(1.2);
    expect(r.reasons).toContain(
      "FSR: 2.00:1 on 60% of the lot, none mapped on the rest; each applies to its part, 1.20:1 over the lot.",
    );
  });

  it("ignores the zones' own controls when the layers supply them, and has no FSR when none is mapped", () => {
    const r = scoreSite(
      site({ ...big, zones: [zone("R4", 1, 9, 5000, 90)], controls: { fsr: [], heightM: [], minLotSizeM2: [] } }),
    );
    expect(r.controls).toEqual({ fsr: null, heightM: null, minLotSizeM2: null });
    expect(r.yieldBasis).toBe("no_fsr");
  });

  it("reports the zones' own controls as control areas for older packs, scored as before", () => {
    const r = scoreSite(site({ areaM2: 1000, zones: [zone("RE1", 0.4, null), zone("R4", 0.6, 2, null, 18)] }));
    expect(r.controlAreas).toEqual({ fsr: [area(2, 0.6, "R4")], heightM: [area(18, 0.6, "R4")], minLotSizeM2: [] });
    expect(r.controls).toEqual({ fsr: 1.2, heightM: 18, minLotSizeM2: null });
    expect(r.reasons.join(" ")).not.toMatch(/FSR:|height limit/);
  });
});

describe("scoreSite: a control mapped on a small part of the lot", () => {
  it("does not apply it to the whole lot when most of the lot has none", () => {
    const c = {
      fsr: [{ value: 4, share: 0.97, label: null }],
      heightM: [{ value: 40, share: 1, label: null }],
      minLotSizeM2: [{ value: 1000, share: 0.03, label: null }],
    };
    const r = scoreSite(site({ zones: [zone("B4", 0.97, null), zone("R4", 0.03, null)], controls: c }));
    expect(r.controls.minLotSizeM2).toBeNull();
    expect(r.subdivision).toEqual({ lots: null, possible: false });
    expect(r.reasons).toContain(
      "Minimum lot size: 1,000 m² on 3% of the lot, none mapped on the rest; most of the lot has none, so none applies.",
    );
  });
});

describe("scoreSite: the worked example from control layers", () => {
  it("gives the same figures and reasons when FSR, height and lot size come from their own layers", () => {
    const legacy = scoreSite(workedExample());
    const layered = scoreSite(
      site({
        zones: [
          { code: "R2", name: "Low Density Residential", share: 1, fsr: null, heightM: null, minLotSizeM2: null },
        ],
        controls: {
          fsr: [{ value: 0.5, share: 1, label: null }],
          heightM: [{ value: 8.5, share: 1, label: null }],
          minLotSizeM2: [{ value: 450, share: 1, label: null }],
        },
      }),
    );
    expect(layered.controls).toEqual(legacy.controls);
    expect(layered.score).toBe(78);
    expect(layered.reasons).toEqual(legacy.reasons);
  });
});
