// What stands on the lot (issue 50, item 5): the uplift is counted beyond it, never below zero, and what is recorded or
// assumed is said.
import { describe, expect, it } from "vitest";
import { scoreSite } from "../../../src/scoring/index.ts";
import type { ExistingUse, SiteFacts } from "../../../src/scoring/types.ts";
import { EXAMPLES } from "./worked-examples.ts";

const mu1: SiteFacts = {
  ...EXAMPLES.e1Site,
  zones: [{ code: "MU1", name: "Mixed Use", share: 1, fsr: 2, heightM: 14, minLotSizeM2: null }],
};

describe("the uplift against what stands", () => {
  it("never rises as more dwellings are recorded standing on the same lot", () => {
    for (const facts of Object.values(EXAMPLES)) {
      let last = Number.POSITIVE_INFINITY;
      for (let n = 0; n <= 30; n++) {
        const existing: ExistingUse =
          n === 0 ? { kind: "vacant", dwellings: 0 } : { kind: "strata", dwellings: n, units: n, strataPlan: null };
        const r = scoreSite({ ...facts, existing });
        expect(r.upliftUnits, `${facts.lotId} with ${n}`).toBeGreaterThanOrEqual(0);
        expect(r.score, `${facts.lotId} with ${n}`).toBeLessThanOrEqual(last);
        last = r.score;
      }
    }
  });

  it("is none on an MU1 strata block whose shop top housing holds fewer dwellings than stand, and says so", () => {
    const r = scoreSite({ ...mu1, existing: { kind: "strata", dwellings: 12, units: 12, strataPlan: "SP80001" } });
    expect([r.yieldBasis, r.dwellingYield, r.upliftDwellings, r.score]).toEqual(["shop_top_housing", 7, 0, 0]);
    expect(r.reasons).toContain(
      "No uplift: 7 dwellings as shop top housing (shops below, apartments above), no more than the 12 dwellings standing today, so the site is rated low.",
    );
  });

  it("shows employment land's permitted floor space beyond the recorded floor space, for information only", () => {
    const r = scoreSite({ ...EXAMPLES.e1Site, existing: { kind: "employment", dwellings: 0, floorSpaceM2: 640 } });
    expect([r.gfaPotentialM2, r.upliftFloorSpaceM2, r.score]).toEqual([1600, 960, 0]);
    expect(r.reasons).toContain("Standing today, as recorded: employment buildings of 640 m² floor space.");
  });
});
