// The worked examples of docs/scoring.md section 10, as facts (rectangles measured exactly in the model's projection).
import type { SiteFacts, ZoneShare } from "../../../src/scoring/types.ts";
import { NEWTOWN, rectangle } from "./sites.ts";

const { lat, lon } = NEWTOWN;
const zone = (
  code: string,
  name: string,
  fsr: number | null,
  heightM: number | null,
  minLot: number | null,
): ZoneShare => ({
  code,
  name,
  share: 1,
  fsr,
  heightM,
  minLotSizeM2: minLot,
});
const R2 = (fsr = 0.5, min: number | null = 450) => zone("R2", "Low Density Residential", fsr, 8.5, min);
const train = (name: string, distanceM: number) => ({ name, mode: "train", distanceM });

function facts(f: Partial<SiteFacts> & Pick<SiteFacts, "lotId" | "areaM2" | "polygon" | "zones">): SiteFacts {
  return {
    hazards: { flood: 0, bushfire: 0 },
    heritageShare: 0,
    heritageNames: [],
    nearestStop: null,
    demoData: false,
    heritageKind: { item: false, conservationArea: false },
    centreDistanceM: null,
    ...f,
  };
}

export const EXAMPLES = {
  yieldOne: facts({
    lotId: "1/DP1001",
    areaM2: 564,
    polygon: rectangle(lat, lon, 10, 56.4),
    zones: [R2()],
    nearestStop: train("Lewisham Station", 1200),
  }),
  dualOccupancy: facts({
    lotId: "2/DP1002",
    areaM2: 612,
    polygon: rectangle(lat, lon, 15.2, 40.26),
    zones: [R2()],
    nearestStop: train("Lewisham Station", 850),
  }),
  r3NearStation: facts({
    lotId: "3/DP1003",
    areaM2: 660,
    polygon: rectangle(lat, lon, 22, 30),
    zones: [zone("R3", "Medium Density Residential", 0.9, 12, 450)],
    nearestStop: train("Petersham Station", 350),
  }),
  heritageTerrace: facts({
    lotId: "4/DP1004",
    areaM2: 137,
    polygon: rectangle(lat, lon, 4.6, 29.8),
    zones: [R2()],
    heritageShare: 1,
    heritageNames: ["Newtown Conservation Area"],
    heritageKind: { item: false, conservationArea: true },
    nearestStop: train("Newtown Station", 450),
  }),
  floodLargeLot: facts({
    lotId: "5/DP1005",
    areaM2: 2000,
    polygon: rectangle(lat, lon, 40, 50),
    zones: [R2()],
    hazards: { flood: 0.6, bushfire: 0 },
    nearestStop: train("Tempe Station", 700),
  }),
  e1Site: facts({
    lotId: "6/DP1006",
    areaM2: 800,
    polygon: rectangle(lat, lon, 20, 40),
    zones: [zone("E1", "Local Centre", 2, 14, null)],
    nearestStop: train("Stanmore Station", 300),
    centreDistanceM: 0,
  }),
  todSite: facts({
    lotId: "7/DP1007",
    areaM2: 960,
    polygon: rectangle(lat, lon, 24, 40),
    zones: [R2()],
    nearestStop: train("Ashfield Station", 350),
  }),
  bushfireLot: facts({
    lotId: "8/DP1008",
    areaM2: 700,
    polygon: rectangle(lat, lon, 20, 35),
    zones: [R2()],
    hazards: { flood: 0, bushfire: 1 },
    nearestStop: train("Berowra Station", 500),
  }),
  r4HeritageItem: facts({
    lotId: "9/DP1009",
    areaM2: 1000,
    polygon: rectangle(lat, lon, 25, 40),
    zones: [zone("R4", "High Density Residential", 1.8, 21, null)],
    heritageShare: 0.8,
    heritageNames: ["Former bank"],
    heritageKind: { item: true, conservationArea: false },
    nearestStop: train("Stanmore Station", 300),
  }),
  subdivision: facts({
    lotId: "10/DP1010",
    areaM2: 1500,
    polygon: rectangle(lat, lon, 30, 50),
    zones: [R2()],
    nearestStop: train("Glenfield Station", 1500),
  }),
  // Issue 50's lots: housing prohibited, townhouses held to their height and site, and one floor space for the yield.
  e4Industrial: facts({
    lotId: "11/DP1011",
    areaM2: 5000,
    polygon: rectangle(lat, lon, 50, 100),
    zones: [zone("E4", "General Industrial", 1, 12, null)],
    nearestStop: train("Clyde Station", 900),
  }),
  r4Townhouses: facts({
    lotId: "12/DP1012",
    areaM2: 4000,
    polygon: rectangle(lat, lon, 50, 80),
    zones: [zone("R4", "High Density Residential", 1.5, 9.5, null)],
    nearestStop: train("Epping Station", 600),
  }),
  r3Tod: facts({
    lotId: "13/DP1013",
    areaM2: 1200,
    polygon: rectangle(lat, lon, 24, 50),
    zones: [zone("R3", "Medium Density Residential", 0.75, 12, 450)],
    nearestStop: train("Lidcombe Station", 350),
  }),
} satisfies Record<string, SiteFacts>;
