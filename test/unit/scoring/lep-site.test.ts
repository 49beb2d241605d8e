// The council's LEP sets the dual occupancy and multi dwelling lot sizes outside a low and mid rise housing area, and
// the Housing SEPP's standards prevail inside one where they are the more permissive (docs/scoring.md section 5.6).
import { describe, expect, it } from "vitest";
import { scoreSite } from "../../../src/scoring/index.ts";
import type { FeasibilityResult, SiteFacts } from "../../../src/scoring/types.ts";
import { NEWTOWN, rectangle, site } from "./sites.ts";

// A lot of the given area and frontage, away from any station or centre (no policy area) unless `stationM` is given.
function lot(lga: string | null, areaM2: number, frontageM: number, more: Partial<SiteFacts> = {}): SiteFacts {
  return site({
    lga,
    areaM2,
    polygon: rectangle(NEWTOWN.lat, NEWTOWN.lon, frontageM, areaM2 / frontageM),
    hazards: { flood: 0, bushfire: 0 },
    nearestStop: { name: "Far station", mode: "train", distanceM: 2_000 },
    ...more,
  });
}

const R3 = [{ code: "R3", name: "Medium Density Residential", share: 1, fsr: 0.7, heightM: 9.5, minLotSizeM2: null }];
const option = (r: FeasibilityResult, basis: string) => r.yieldOptions.find((o) => o.basis === basis);
const reason = (r: FeasibilityResult, label: string) => r.reasons.find((x) => x.startsWith(label)) ?? "";

describe("a dual occupancy outside a low and mid rise housing area", () => {
  it("is held to Blacktown LEP 2015 cl 4.1B's 500 m²: 499 m² fails, 500 m² passes, and the reason names the clause", () => {
    const under = scoreSite(lot("Blacktown", 499, 20));
    const at = scoreSite(lot("Blacktown", 500, 20));
    expect(under.policy.area).toBe("none");
    expect(option(under, "dual_occupancy")).toMatchObject({ permitted: false, clause: "Blacktown LEP 2015 cl 4.1B" });
    expect(reason(under, "Dual occupancy")).toBe(
      "Dual occupancy not permitted (Blacktown LEP 2015 cl 4.1B): lot 499 m² < 500 m².",
    );
    expect(option(at, "dual_occupancy")).toMatchObject({ permitted: true, clause: "Blacktown LEP 2015 cl 4.1B" });
    expect(reason(at, "Dual occupancy")).toBe(
      "Dual occupancy permitted (Blacktown LEP 2015 cl 4.1B): lot 500 m² ≥ 500 m².",
    );
    expect([under.yieldBasis, at.yieldBasis]).toEqual(["single_dwelling", "dual_occupancy"]);
  });

  it("is held to Ryde LEP 2014 cl 4.1B's 15 m frontage: 14.9 m fails, 15 m passes on a 600 m² lot", () => {
    const under = scoreSite(lot("Ryde", 600, 14.9));
    const at = scoreSite(lot("Ryde", 600, 15));
    expect(option(under, "dual_occupancy")?.permitted).toBe(false);
    expect(option(under, "dual_occupancy")?.rule).toBe("lot 600 m² ≥ 580 m², frontage 14.9 m < 15 m");
    expect(option(at, "dual_occupancy")?.permitted).toBe(true);
    expect(reason(at, "Dual occupancy")).toContain("(Ryde LEP 2014 cl 4.1B)");
  });

  it("asks Hornsby LEP 2013 cl 4.1C's 800 m² under a heritage conservation area, its 700 m² elsewhere", () => {
    const hca = { heritageShare: 1, heritageKind: { item: false, conservationArea: true } };
    expect(option(scoreSite(lot("Hornsby", 750, 20)), "dual_occupancy")?.permitted).toBe(true);
    const inHca = option(scoreSite(lot("Hornsby", 750, 20, hca)), "dual_occupancy");
    expect(inHca?.permitted).toBe(false);
    expect(inHca?.rule).toBe("lot 750 m² < 800 m²");
  });

  it("counts nothing in a council whose figure is not confirmed, and says to check its LEP", () => {
    const fairfield = scoreSite(lot("Fairfield", 700, 20));
    expect(option(fairfield, "dual_occupancy")).toMatchObject({
      permitted: false,
      clause: "Fairfield LEP, not confirmed",
    });
    expect(reason(fairfield, "Dual occupancy")).toContain("not counted: check the Fairfield LEP");
    expect(fairfield.upliftDwellings).toBe(0);
    const campbelltown = scoreSite(lot("Campbelltown", 700, 20));
    expect(option(campbelltown, "dual_occupancy")?.clause).toBe("Campbelltown LEP 2015 cl 4.1B(2), not confirmed");
    expect(reason(campbelltown, "Dual occupancy")).toContain("check the Campbelltown LEP 2015");
    expect(campbelltown.upliftDwellings).toBe(0);
    expect(reason(scoreSite(lot(null, 700, 20)), "Dual occupancy")).toContain("not counted: check the LEP;");
  });

  it("keeps s 168(2)'s figures as a screen for facts that carry no LGA", () => {
    const { lga: _lga, ...older } = lot("Blacktown", 499, 20);
    const r = scoreSite(older);
    expect(option(r, "dual_occupancy")?.permitted).toBe(true);
    expect(option(r, "dual_occupancy")?.clause).toContain("Housing SEPP 2021 s 168(2) figures as a screen");
  });
});

describe("a dual occupancy inside a low and mid rise housing area", () => {
  const near = { nearestStop: { name: "Petersham Station", mode: "train", distanceM: 300 } };

  it("passes on s 168(2)'s 450 m² and 12 m where the LEP asks more (Ku-ring-gai's 1,015 m²)", () => {
    const r = scoreSite(lot("Ku-ring-gai", 600, 15, near));
    expect(r.policy.area).toBe("lmr_inner");
    expect(option(r, "dual_occupancy")).toMatchObject({ permitted: true, clause: "Housing SEPP 2021 s 168(2)" });
  });

  it("passes on the LEP's figure where it is the more permissive: Blacktown sets no width, s 168(2) asks 12 m", () => {
    const r = scoreSite(lot("Blacktown", 550, 11, near));
    expect(option(r, "dual_occupancy")).toMatchObject({ permitted: true, clause: "Blacktown LEP 2015 cl 4.1B" });
    const neither = option(scoreSite(lot("Blacktown", 480, 11, near)), "dual_occupancy");
    expect(neither?.permitted).toBe(false);
    expect(neither?.rule).toBe(
      "lot 480 m² ≥ 450 m², frontage 11 m < 12 m; Blacktown LEP 2015 cl 4.1B: lot 480 m² < 500 m²",
    );
  });
});

describe("multi dwelling housing in Zone R3 outside a low and mid rise housing area", () => {
  it("is held to Georges River LEP 2021 cl 4.1B's 800 m² and 18 m: 799 m² fails, 800 m² passes", () => {
    const under = option(scoreSite(lot("Georges River", 799, 20, { zones: R3 })), "multi_dwelling");
    const at = option(scoreSite(lot("Georges River", 800, 20, { zones: R3 })), "multi_dwelling");
    expect(under).toMatchObject({ permitted: false, clause: "Georges River LEP 2021 cl 4.1B" });
    expect(under?.rule).toMatch(/^lot 799 m² < 800 m², frontage 20 m ≥ 18 m; /);
    expect(at).toMatchObject({ permitted: true, clause: "Georges River LEP 2021 cl 4.1B" });
  });

  it("takes s 172(2)'s figures as a screen where the LEP sets none (Ryde), and says so", () => {
    const r = option(scoreSite(lot("Ryde", 700, 20, { zones: R3 })), "multi_dwelling");
    expect(r?.permitted).toBe(true);
    expect(r?.clause).toBe("Ryde LEP 2014 sets none; Housing SEPP 2021 s 172(2) figures as a screen");
  });
});
