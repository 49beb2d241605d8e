// What kind of place each suburb is (inner terraces, middle ring, leafy north, new estates, rural fringe,
// industrial), and the street blocks and lot sizes typical of it.
import { haversineM } from "../../src/geo/distance.ts";
import type { Suburb } from "./inputs.ts";
import type { ZoneCode } from "./zones.ts";

export type SuburbClass = "cbd" | "inner" | "middle" | "leafy" | "outer" | "estate" | "rural" | "industrial";

export type Character = {
  cls: SuburbClass;
  // Lot frontage and depth ranges (metres), road width, block length between cross streets.
  frontage: [number, number];
  depth: [number, number];
  road: number;
  block: number;
  base: ZoneCode;
  // Share of the suburb's blocks built on in the full world (the rest: bushland lots or nothing).
  urban: number;
  // The rest of the suburb becomes large C2 bushland lots rather than staying empty.
  bushRest: boolean;
  // Bushfire prone at the bushland edge (bushland reserves and C2 land).
  bushy: boolean;
  heritageItem: number;
  conservationAreas: number;
  // R2's minimum lot size here, when the council's list would not suit the area.
  r2MinLot: number | null;
};

const GPO: [number, number] = [151.2093, -33.8688];

const CBD = new Set(["Sydney", "Barangaroo", "Dawes Point", "The Rocks", "Millers Point", "Haymarket"]);

// Suburbs that are mostly industrial estates (E4 General Industrial since 2023).
const INDUSTRIAL = new Set([
  "Alexandria",
  "Banksmeadow",
  "Port Botany",
  "Mascot",
  "Silverwater",
  "Camellia",
  "Rosehill",
  "Smithfield",
  "Wetherill Park",
  "Yennora",
  "Chullora",
  "Arndell Park",
  "Huntingwood",
  "Eastern Creek",
  "Erskine Park",
  "Minchinbury",
  "Moorebank",
  "Chipping Norton",
  "Milperra",
  "Ingleburn",
  "Smeaton Grange",
  "Kings Park",
  "Girraween",
  "Taren Point",
  "Kirrawee",
  "Brookvale",
  "Artarmon",
  "Lidcombe",
  "Villawood",
  "Regents Park",
  "Homebush West",
  "Clyde",
  "Rydalmere",
  "Seven Hills",
  "North St Marys",
  "Emu Plains",
  "Lane Cove West",
  "Mount Kuring-Gai",
  "Bonnyrigg Heights",
]);

// Growth-area suburbs built since about 2000: small lots on new street grids.
const ESTATES = new Set([
  "Oran Park",
  "Gregory Hills",
  "Harrington Park",
  "Gledswood Hills",
  "Spring Farm",
  "Elderslie",
  "Catherine Field",
  "Leppington",
  "Austral",
  "Edmondson Park",
  "Bardia",
  "Denham Court",
  "Middleton Grange",
  "Carnes Hill",
  "Box Hill",
  "The Ponds",
  "Schofields",
  "Marsden Park",
  "Riverstone",
  "Rouse Hill",
  "Kellyville Ridge",
  "Stanhope Gardens",
  "Jordan Springs",
  "Ropes Crossing",
  "Glenmore Park",
  "Elizabeth Hills",
  "Menangle Park",
  "Gilead",
  "Tallawong",
  "Vineyard",
  "Colebee",
  "Nirimba Fields",
  "Melonba",
  "Gables",
  "Grantham Farm",
  "Cobbitty",
  "Claymore",
  "Willowdale",
  "Caddens",
  "Llandilo",
  "North Kellyville",
  "Bella Vista",
  "Kellyville",
  "Beaumont Hills",
  "Cecil Hills",
  "Hoxton Park",
  "Prestons",
  "Horningsea Park",
]);

// Councils with no bush fire prone land mapped: the inner city and its neighbours, built out long ago.
export const NO_BUSHFIRE_LGAS: ReadonlySet<string> = new Set(["Sydney", "Inner West", "Burwood", "Strathfield"]);

const LEAFY_LGAS = new Set(["Ku-ring-gai", "Hornsby", "Hunters Hill", "Mosman", "Lane Cove"]);
// Inner councils whose terraces are zoned R1 General Residential (Sydney LEP 2012, Inner West LEP 2022).
const R1_INNER = new Set(["Sydney", "Inner West"]);

/** Kilometres from the GPO. */
export function cbdKm(s: Suburb): number {
  return haversineM(GPO[0], GPO[1], s.label[0], s.label[1]) / 1000;
}

function areaKm2(s: Suburb): number {
  const [w, south, e, n] = s.bbox;
  const kx = 111.32 * Math.cos((((south + n) / 2) * Math.PI) / 180);
  return (e - w) * kx * (n - south) * 110.95;
}

/** The suburb's kind; `station`: a station lies inside it (a town centre, never rural fringe). */
export function classify(s: Suburb, station: boolean): SuburbClass {
  const d = cbdKm(s);
  if (CBD.has(s.name)) return "cbd";
  if (INDUSTRIAL.has(s.name)) return "industrial";
  if (ESTATES.has(s.name)) return "estate";
  if (!station && ((areaKm2(s) > 14 && d > 22) || (areaKm2(s) > 30 && d > 15))) return "rural";
  if (d < 6.5) return "inner";
  if (
    LEAFY_LGAS.has(s.lga) ||
    (s.lga === "The Hills Shire" && d < 32) ||
    (s.lga === "Northern Beaches" && d > 17) ||
    s.lga === "Woollahra"
  )
    return "leafy";
  if (d < 18) return "middle";
  return "outer";
}

export function characterOf(s: Suburb, station: boolean): Character {
  const ch = characterByClass(s, station);
  return NO_BUSHFIRE_LGAS.has(s.lga) ? { ...ch, bushy: false } : ch;
}

function characterByClass(s: Suburb, station: boolean): Character {
  const cls = classify(s, station);
  const common = { cls, heritageItem: 0, conservationAreas: 0, r2MinLot: null, bushRest: false, bushy: false };
  switch (cls) {
    case "cbd":
      return {
        ...common,
        frontage: [12, 30],
        depth: [25, 40],
        road: 20,
        block: 110,
        base: "E2",
        urban: 1,
        heritageItem: 0.03,
      };
    case "inner":
      return {
        ...common,
        frontage: [5, 9],
        depth: [24, 32],
        road: 12,
        block: 130,
        base: R1_INNER.has(s.lga) ? "R1" : "R3",
        urban: 1,
        heritageItem: 0.015,
        conservationAreas: 2,
      };
    case "middle":
      return {
        ...common,
        frontage: [13, 17],
        depth: [34, 42],
        road: 14,
        block: 170,
        base: "R2",
        urban: 1,
        heritageItem: 0.003,
        conservationAreas: 1,
        bushy: s.lga === "Sutherland Shire" || s.lga === "Northern Beaches",
        r2MinLot: 450,
      };
    case "leafy":
      return {
        ...common,
        frontage: [18, 25],
        depth: [40, 50],
        road: 15,
        block: 200,
        base: "R2",
        urban: 1,
        heritageItem: 0.004,
        conservationAreas: 1,
        bushy: true,
        r2MinLot: 700,
      };
    case "outer":
      return {
        ...common,
        frontage: [15, 20],
        depth: [35, 42],
        road: 15,
        block: 190,
        base: "R2",
        urban: 0.36,
        heritageItem: 0.001,
        // An established suburb is houses to its edges: its unbuilt blocks stay empty, not bushland.
        bushy: true,
      };
    case "estate":
      return {
        ...common,
        frontage: [11, 15],
        depth: [28, 32],
        road: 14,
        block: 160,
        base: "R1",
        urban: 0.18,
        bushy: true,
        bushRest: true,
      };
    case "rural":
      return {
        ...common,
        frontage: [16, 20],
        depth: [35, 40],
        road: 18,
        block: 220,
        base: "R2",
        urban: 0.04,
        heritageItem: 0.002,
        bushy: true,
        bushRest: true,
        r2MinLot: 600,
      };
    case "industrial":
      return {
        ...common,
        frontage: [30, 60],
        depth: [30, 40],
        road: 18,
        block: 220,
        base: "E4",
        urban: 1,
      };
  }
}

// Stations whose centre is a commercial core (E2) or mixed-use precinct (MU1); the rest get a local centre (E1).
const E2_STATIONS = new Set([
  "Central",
  "Town Hall",
  "Wynyard",
  "Circular Quay",
  "Martin Place",
  "St James",
  "Museum",
  "Barangaroo",
  "Gadigal",
  "North Sydney",
  "Victoria Cross",
  "St Leonards",
  "Chatswood",
  "Parramatta",
  "Bondi Junction",
  "Hurstville",
  "Burwood",
  "Liverpool",
  "Penrith",
  "Blacktown",
  "Campbelltown",
  "Castle Hill",
  "Hornsby",
  "Macquarie Park",
  "Macquarie University",
  "Norwest",
  "Bankstown",
  "Sutherland",
]);
const MU1_STATIONS = new Set([
  "Rhodes",
  "Green Square",
  "Wolli Creek",
  "Mascot",
  "Olympic Park",
  "Epping",
  "Rockdale",
  "Kogarah",
  "Granville",
  "Redfern",
  "Waterloo",
  "Crows Nest",
  "Tallawong",
  "Rouse Hill",
  "Kellyville",
  "Bella Vista",
  "Hills Showground",
  "Strathfield",
  "Auburn",
  "Fairfield",
  "Cabramatta",
  "Wentworth Point",
]);

export type CentreKind = { zone: "E1" | "E2" | "MU1"; radius: number };

/** A station's centre zone and its radius in metres. */
export function stationCentre(name: string, draw: number): CentreKind {
  const short = name.replace(/ Station$/, "");
  if (E2_STATIONS.has(short)) return { zone: "E2", radius: 320 + Math.round(draw * 120) };
  if (MU1_STATIONS.has(short)) return { zone: "MU1", radius: 240 + Math.round(draw * 80) };
  return { zone: "E1", radius: 120 + Math.round(draw * 80) };
}
