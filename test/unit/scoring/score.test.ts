import { describe, expect, it } from "vitest";
import { DEMO_DATA_REASON, ratingFor, scoreSite } from "../../../src/scoring/index.ts";
import type { ZoneShare } from "../../../src/scoring/index.ts";
import { NEWTOWN, rectangle, site, workedExample } from "./sites.ts";
import { EXAMPLES } from "./worked-examples.ts";

const { lat, lon } = NEWTOWN;

function zone(
  code: string,
  share: number,
  fsr: number | null,
  minLotSizeM2: number | null = null,
  heightM: number | null = null,
): ZoneShare {
  return { code, name: null, share, fsr, heightM, minLotSizeM2 };
}

describe("issue 35 done-when: the score follows the uplift", () => {
  const yieldOne = scoreSite(EXAMPLES.yieldOne);

  it("rates a yield-1 lot low, whatever else is true of it", () => {
    expect(yieldOne.dwellingYield).toBe(1);
    expect(yieldOne.rating).toBe("low");
    // The lot of the issue: 564 m², near a station, no constraints, a perfect rectangle: still low.
    const ideal = scoreSite({
      ...EXAMPLES.yieldOne,
      nearestStop: { name: "Petersham Station", mode: "train", distanceM: 100 },
    });
    expect(ideal.upliftUnits).toBe(0);
    expect(ideal.rating).toBe("low");
  });

  it("ranks a subdividable or dual-occupancy lot near a station above the yield-1 lot", () => {
    const near = { name: "Lewisham Station", mode: "train", distanceM: 900 };
    const dual = scoreSite({ ...EXAMPLES.dualOccupancy, nearestStop: near });
    const sub = scoreSite({ ...EXAMPLES.subdivision, nearestStop: near });
    expect(dual.yieldBasis).toBe("dual_occupancy");
    expect(sub.yieldBasis).toBe("subdivision");
    expect(dual.score).toBeGreaterThan(yieldOne.score);
    expect(sub.score).toBeGreaterThan(yieldOne.score);
    expect(dual.rating).toBe("medium");
  });

  it("does not rate a heritage terrace medium by default", () => {
    expect(scoreSite(EXAMPLES.heritageTerrace).rating).toBe("low");
    // Even an R3 terrace in the inner area stays low: 6 m is too narrow for any denser form.
    const r3 = scoreSite({
      ...EXAMPLES.heritageTerrace,
      areaM2: 200,
      polygon: rectangle(lat, lon, 6, 33.3),
      zones: [zone("R3", 1, 0.9, 450, 12)],
      nearestStop: { name: "St Peters Station", mode: "train", distanceM: 300 },
    });
    expect(r3.policy.area).toBe("lmr_inner");
    // 6 m is narrower than the Apartment Design Guide's 6 m side setbacks on both sides: no apartment fits.
    expect(r3.yieldOptions.find((o) => o.basis === "mid_rise_apartments")).toMatchObject({
      permitted: false,
      dwellings: 0,
      gfaM2: 0,
      limitedBy: "envelope",
    });
    expect(r3.dwellingYield).toBe(1);
    expect(r3.rating).toBe("low");
    // A conservation area takes 30% off whatever uplift the lot has: 50 points (a dual occupancy) x 0.70 x 0.80 = 28.
    const widened = scoreSite({
      ...EXAMPLES.heritageTerrace,
      areaM2: 960,
      polygon: rectangle(lat, lon, 24, 40),
      nearestStop: null,
    });
    expect(widened.upliftDwellings).toBe(1);
    expect(widened.score).toBe(28);
    expect(widened.heritageKind).toBe("conservation_area");
    expect(widened.rating).toBe("low");
  });
});

describe("scoreSite: edge cases", () => {
  it("flags demo data first among the reasons", () => {
    const r = scoreSite(site({ demoData: true }));
    expect(r.demoData).toBe(true);
    expect(r.reasons[0]).toBe(DEMO_DATA_REASON);
  });

  it("rates a lot with no planning zone low, with no uplift", () => {
    const r = scoreSite(site({ zones: [] }));
    expect(r.dominantZone).toBeNull();
    expect(r.zoneCategory).toBeNull();
    expect(r.yieldBasis).toBe("no_zone");
    expect(r.dwellingYield).toBeNull();
    expect(r.score).toBe(0);
    expect(r.rating).toBe("low");
    expect(r.reasons.join(" ")).toMatch(/no planning zone found/i);
  });

  it("handles a zero-area lot with no geometry", () => {
    const r = scoreSite(site({ areaM2: 0, polygon: { type: "Polygon", coordinates: [] } }));
    expect(r.areaM2).toBe(0);
    expect(r.frontageM).toBe(0);
    expect(r.regularity).toBe(0);
    expect(r.yieldBasis).toBe("too_small");
    expect(r.upliftDwellings).toBe(0);
    expect(r.score).toBe(0);
  });

  it("treats a negative or non-finite area as zero", () => {
    expect(scoreSite(site({ areaM2: -5 })).areaM2).toBe(0);
    expect(scoreSite(site({ areaM2: Number.NaN })).areaM2).toBe(0);
  });

  it("gives an apartment zone without FSR no uplift and says why", () => {
    const r = scoreSite(site({ areaM2: 300, polygon: rectangle(lat, lon, 10, 30), zones: [zone("MU1", 1, null)] }));
    expect(r.yieldBasis).toBe("no_fsr");
    expect(r.upliftDwellings).toBeNull();
    expect(r.score).toBe(0);
    expect(r.reasons).toContain(
      "Zone MU1 has no FSR mapped, so the uplift cannot be read from the controls: rated low until the LEP is checked.",
    );
  });

  it("reads a retired business zone as its successor (B4 as MU1) and says so", () => {
    const r = scoreSite(
      site({
        areaM2: 1000,
        polygon: rectangle(lat, lon, 25, 40),
        zones: [zone("B4", 1, 1.8)],
        hazards: { flood: 0, bushfire: 0 },
      }),
    );
    expect(r.zoneCategory).toBe("apartment");
    // MU1 mandates shop top housing: 1,000 m² of shops on the ground floor, the rest of 1,800 m² (800 m²) housing
    // above = 7 apartments; flats without shops are left to the council (15 by the FSR alone), not counted.
    expect(r.yieldBasis).toBe("shop_top_housing");
    expect(r.dwellingYield).toBe(7);
    expect(r.gfaPotentialM2).toBe(1800);
    expect(r.yieldOptions.find((o) => o.basis === "apartments")).toMatchObject({ permitted: false, dwellings: 15 });
    expect(r.reasons.join(" ")).toContain("B4 was retired on 26 April 2023: read as MU1.");
  });

  it("names one dwelling above the shops of an employment lot in the singular", () => {
    const r = scoreSite(
      site({ areaM2: 380, polygon: rectangle(lat, lon, 10, 38), zones: [zone("E1", 1, 1.5, null, 14)] }),
    );
    expect(r.dwellingYield).toBe(1);
    expect(r.reasons).toContain(
      "Zone E1 is employment land: not assessed for housing, so rated low; its shop top housing (1 dwelling above the shops) is shown for information only.",
    );
  });

  it("finds no uplift in a recreation zone", () => {
    const r = scoreSite(site({ zones: [zone("RE1", 1, null)] }));
    expect(r.yieldBasis).toBe("not_residential");
    expect(r.score).toBe(0);
    expect(r.rating).toBe("low");
  });

  it("weights FSR by zone share on a split-zoned lot", () => {
    const r = scoreSite(site({ areaM2: 1000, zones: [zone("RE1", 0.4, null), zone("R4", 0.6, 2, null, 18)] }));
    expect(r.zones.map((z) => z.code)).toEqual(["R4", "RE1"]);
    expect(r.controls).toEqual({ fsr: 1.2, heightM: 18, minLotSizeM2: null });
    // 450 m from St Peters: the outer area's 1.5:1 (1,500 m²) beats the LEP's 1.2:1, held to the envelope of the LEP's
    // 18 m (5 storeys on a lot 20 m wide and 50 m deep): 1,286 m², the floor space of the form the yield uses.
    expect(r.yieldBasis).toBe("mid_rise_apartments");
    expect(r.gfaPotentialM2).toBe(1286);
    expect(r.reasons).toContain("Split zoning: R4 60%, RE1 40%; R4 is dominant.");
  });

  it("uses the facts' station over a nearer bus stop, and a centre when it is nearer than the station", () => {
    const bus = { name: "Stop 12", mode: "bus", distanceM: 80 };
    const r = scoreSite(
      site({ nearestStop: bus, nearestStation: { name: "St Peters Station", mode: "train", distanceM: 700 } }),
    );
    expect(r.station?.name).toBe("St Peters Station");
    expect(r.policy).toMatchObject({ area: "lmr_outer", from: "station", distanceM: 700 });
    // A designated town centre, walked to at build time, places the lot; centre-zoned land alone does not.
    const centre = { name: "Stanmore town centre", walkingM: 350.4, straightM: 290 };
    const c = scoreSite(site({ nearestStop: bus, nearestStation: null, reach: { station: null, centre } }));
    expect(c.policy).toEqual({
      area: "lmr_inner",
      distanceM: 350,
      from: "centre",
      name: "Stanmore town centre",
      excludedBy: null,
    });
    const land = scoreSite(site({ nearestStop: bus, nearestStation: null, centreDistanceM: 150 }));
    expect(land.policy.area).toBe("none");
    const none = scoreSite(site({ nearestStop: bus, nearestStation: null, centreDistanceM: null }));
    expect(none.policy.area).toBe("none");
  });

  it("rounds and clamps shares as shown", () => {
    const r = scoreSite(site({ hazards: { flood: 0.384, bushfire: 1.7 }, heritageShare: -0.2 }));
    expect(r.hazards).toEqual({ flood: 0.38, bushfire: 1 });
    expect(r.heritage.share).toBe(0);
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
    // 2,000 m² by the FSR, held to the envelope of 22 m (6 storeys inside the Part 3F setbacks): 1,806 m².
    expect(r.gfaPotentialM2).toBe(1806);
    expect(r.dwellingYield).toBe(15); // floor(1,806 x 0.75 / 85) = floor(15.9)
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
      site({
        ...big,
        zones: [zone("R4", 1, 9, 5000, 90)],
        controls: { fsr: [], heightM: [], minLotSizeM2: [] },
        nearestStop: null, // outside any policy area, so only the LEP's (absent) FSR could give apartments
      }),
    );
    expect(r.controls).toEqual({ fsr: null, heightM: null, minLotSizeM2: null });
    // No FSR mapped: no apartment option at all, only what needs no FSR (a dual occupancy), which R4 leaves to the
    // council: not counted, so the yield cannot be read from the controls.
    expect(r.yieldOptions.map((o) => o.basis)).toEqual(["dual_occupancy"]);
    expect(r.yieldOptions[0]?.permitted).toBe(false);
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
    expect(layered.score).toBe(legacy.score);
    expect(layered.score).toBe(52); // 65 (3 more dwellings) x 0.81 (flood 38%) = 53, x 0.99 = 52
    expect(layered.reasons).toEqual(legacy.reasons);
  });
});
