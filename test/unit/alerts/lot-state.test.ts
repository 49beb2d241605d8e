// A lot's state for alerts: the main zone, the control area over most of the lot (else the zone's own), overlays in
// whole percent.
import { describe, expect, it } from "vitest";
import { lotState } from "../../../src/alerts/lot-state.ts";
import type { LotRecord } from "../../../src/packs/paged/lot-columns.ts";

function record(facts: Partial<LotRecord["facts"]>): LotRecord {
  return {
    facts: {
      lotId: "1//DP1",
      areaM2: 600,
      zones: [],
      hazards: { flood: 0, bushfire: 0 },
      heritageShare: 0,
      heritageNames: [],
      nearestStop: null,
      demoData: true,
      ...facts,
    } as LotRecord["facts"],
    place: { address: null, suburb: null, lga: null, frontageM: null, centreM: null, heritageKind: 0 },
  };
}

const zone = (code: string, share: number, fsr: number | null) => ({
  code,
  name: null,
  share,
  fsr,
  heightM: 9,
  minLotSizeM2: 450,
});

describe("lotState", () => {
  it("takes the zone and the control areas covering most of the lot", () => {
    const s = lotState(
      record({
        zones: [zone("R2", 0.3, 0.5), zone("R3", 0.7, 0.9)],
        controls: {
          fsr: [
            { value: 0.5, share: 0.4, label: null },
            { value: 0.9, share: 0.6, label: null },
          ],
          heightM: [{ value: 12, share: 1, label: null }],
          minLotSizeM2: [],
        },
        hazards: { flood: 0.126, bushfire: 0 },
        heritageShare: 1,
      }),
      "1//DP1",
      [0, 0, 1, 1],
      [0.5, 0.5],
    );
    expect(s).toMatchObject({
      zone: "R3",
      fsr: 0.9,
      heightM: 12,
      minLotM2: null,
      flood: 13,
      bushfire: 0,
      heritage: 100,
    });
  });

  it("falls back to the main zone's own controls when the pack has no control layers", () => {
    const s = lotState(record({ zones: [zone("R4", 1, 2)] }), "1//DP1", [0, 0, 1, 1], [0.5, 0.5]);
    expect(s).toMatchObject({ zone: "R4", fsr: 2, heightM: 9, minLotM2: 450 });
  });
});
