// The worked examples of docs/scoring.md section 10, as facts (rectangles measured exactly in the model's projection).
import { type StreetLine, streetFrontageM } from "../../../src/geo/street-frontage.ts";
import { shownShape } from "../../../src/scoring/geometry.ts";
import type { LotPolygon, LotShapeShown, SiteFacts, ZoneShare } from "../../../src/scoring/types.ts";
import { NEWTOWN, rectangle, ringAt } from "./sites.ts";

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

// A battle-axe lot (metres, x east, y north, about its bounding box's centre): a 6 m handle 35 m long from the street to
// a 25 m by 26.4 m lot behind the lot in front; 6 × 35 + 25 × 26.4 = 870 m². The street's reserve ends at y = 0.
const BATTLE_AXE: [number, number][] = [
  [0, 0],
  [6, 0],
  [6, 35],
  [25, 35],
  [25, 61.4],
  [0, 61.4],
].map(([x, y]) => [(x as number) - 12.5, (y as number) - 30.7]);
export const BATTLE_AXE_STREET: StreetLine = {
  key: "Example Street",
  a: [-62.5, -40.7],
  b: [62.5, -40.7],
  halfWidthM: 10,
};
const battleAxePolygon: LotPolygon = { type: "Polygon", coordinates: [ringAt(lat, lon, BATTLE_AXE)] };
/** The battle-axe lot's shape as its pack would store it: the frontage on the street, the regularity measured. */
export const BATTLE_AXE_SHAPE: LotShapeShown = {
  frontageM: streetFrontageM(BATTLE_AXE, [BATTLE_AXE_STREET]) ?? 0,
  regularity: shownShape(battleAxePolygon).regularity,
  frontageBasis: "street",
};
export const BATTLE_AXE_RING = BATTLE_AXE;

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
    nearestStop: train("St Peters Station", 450),
  }),
  floodLargeLot: facts({
    lotId: "5/DP1005",
    areaM2: 2000,
    polygon: rectangle(lat, lon, 40, 50),
    zones: [R2()],
    hazards: { flood: 0.6, bushfire: 0 },
    nearestStop: train("Arncliffe Station", 700),
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
    nearestStop: train("Wahroonga Station", 500),
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
    nearestStop: train("Meadowbank Station", 600),
  }),
  r3Tod: facts({
    lotId: "13/DP1013",
    areaM2: 1200,
    polygon: rectangle(lat, lon, 24, 50),
    zones: [zone("R3", "Medium Density Residential", 0.75, 12, 450)],
    nearestStop: train("Lidcombe Station", 350),
  }),
  // Issue 50's frontage and what stands: a battle-axe lot, a strata block, a vacant lot.
  battleAxe: facts({
    lotId: "14/DP1014",
    areaM2: 870,
    polygon: battleAxePolygon,
    zones: [R2()],
    nearestStop: train("Lewisham Station", 850),
    shape: BATTLE_AXE_SHAPE,
    existing: { kind: "house", dwellings: 1 },
  }),
  strataBlock: facts({
    lotId: "CP/SP12345",
    areaM2: 1000,
    polygon: rectangle(lat, lon, 25, 40),
    zones: [zone("R4", "High Density Residential", 1.8, 21, null)],
    nearestStop: train("Lewisham Station", 1200),
    existing: { kind: "strata", dwellings: 24, units: 24, strataPlan: "SP12345" },
  }),
  vacantR3: facts({
    lotId: "16/DP1016",
    areaM2: 700,
    polygon: rectangle(lat, lon, 20, 35),
    zones: [zone("R3", "Medium Density Residential", 0.75, 12, 450)],
    nearestStop: train("Lewisham Station", 1200),
    existing: { kind: "vacant", dwellings: 0 },
  }),
  // Issue 50, item 2: where the Low and Mid-Rise policy applies. A corner shop's E1 is not a town centre.
  cornerShop: facts({
    lotId: "17/DP1017",
    areaM2: 650,
    polygon: rectangle(lat, lon, 13, 50),
    zones: [R2()],
    nearestStop: train("Riverstone Station", 3000),
    centreDistanceM: 150,
    reach: { station: null, centre: { name: "Rouse Hill town centre", walkingM: 2600, straightM: 2100 } },
  }),
  // A regional lot: Dubbo has no Schedule 11 station and no mapped town centre; 300 m from E2 land.
  regionalR3: facts({
    lotId: "18/DP1018",
    areaM2: 1000,
    polygon: rectangle(lat, lon, 25, 40),
    zones: [zone("R3", "Medium Density Residential", 0.75, 12, 450)],
    nearestStop: train("Dubbo Station", 900),
    centreDistanceM: 300,
    lga: "Dubbo Regional",
  }),
  // Hawkesbury is outside Chapter 6 (s 164(1)(e)) however near its town centre.
  excludedCouncil: facts({
    lotId: "19/DP1019",
    areaM2: 700,
    polygon: rectangle(lat, lon, 20, 35),
    zones: [R2()],
    nearestStop: train("Windsor Station", 900),
    centreDistanceM: 250,
    reach: { station: null, centre: { name: "Windsor town centre", walkingM: 350, straightM: 280 } },
    lga: "Hawkesbury",
  }),
} satisfies Record<string, SiteFacts>;
