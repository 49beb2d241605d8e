// The LEP figures for dual occupancies and multi dwelling housing, per Greater Sydney council: the minimum lot area and
// width each council's local environmental plan sets, with its clause, the day the clause took the form read, and the
// text read. The scoring reads these and spells no figure of its own (docs/design.md section 13; docs/scoring.md
// section 5.6 gives the table and how it was read). Outside a low and mid rise housing area these govern; a council not
// here, or a rule not confirmed, counts no dwellings from the LEP and its reason says to check the LEP.
//
// Each LEP was read in the NSW legislation text as copied into Heenco/nsw-planning-library (public/EPI/LEPs/, commit
// 3b10f6b, 13 April 2026), each clause's amendment notes and the plan's table of amending instruments giving the dates;
// amendments published after the last one a plan lists were not seen.

export type LepForm = "dual_occupancy" | "multi_dwelling_housing";

/** One council's rule for one form of housing. */
export interface LepLotRule {
  readonly form: LepForm;
  /** The zones the clause sets the figure in. */
  readonly zones: readonly string[];
  /** As a reason cites it: "Blacktown LEP 2015 cl 4.1B". */
  readonly clause: string;
  /** ISO date the clause took the form read (its insertion or last amendment). */
  readonly commenced: string;
  /** The text read: the LEP as amended to this ISO date (the last amendment its table lists). */
  readonly version: string;
  readonly source: string;
  /** False where the figure could not be read (a map the text refers to, a clause not found): no dwellings counted. */
  readonly confirmed: boolean;
  /** The least lot area the form needs (for a dual occupancy the less demanding type); null: the LEP sets none. */
  readonly minAreaM2: number | null;
  /** The least lot width (at the front building line, or the road frontage the clause names); null: none set. */
  readonly minWidthM: number | null;
  /** The area the clause asks in a heritage conservation area, where it asks more there. */
  readonly conservationAreaMinAreaM2?: number;
  /** What else the clause says, and why this figure was taken. */
  readonly note: string;
}

/** A council (a local government area as the packs name it) and its LEP's rules. */
export interface CouncilLep {
  readonly council: string;
  /** The instrument, as "check the <lep>" names it. */
  readonly lep: string;
  readonly rules: readonly LepLotRule[];
}

const legislation = (epi: string): string => `https://legislation.nsw.gov.au/view/html/inforce/current/${epi}`;
const DO: LepForm = "dual_occupancy";
const MDH: LepForm = "multi_dwelling_housing";
// Mosman Local Environmental Plan Amendment (Exempt and Complying Development Codes and Housing—Dual Occupancies) 2025
// (2025 No 597), LW 31 October 2025, commenced on publication: the minimum lot sizes councils nominated for Zone R2.
const DUAL_OCCUPANCY_LOTS_2025 = "2025-10-31";

export const COUNCIL_LEPS: readonly CouncilLep[] = [
  {
    council: "Northern Beaches",
    lep: "Warringah LEP 2011, Pittwater LEP 2014 or Manly LEP 2013",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Warringah LEP 2011 cl 4.1B, Pittwater LEP 2014 cl 4.1B",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2025-10-31",
        source: `${legislation("epi-2011-0649")}; ${legislation("epi-2014-0320")}`,
        confirmed: true,
        minAreaM2: 800,
        minWidthM: null,
        note:
          "Warringah LEP 2011 cl 4.1B: 800 m² in Zone R2 (Ins 2025 No 597); Pittwater LEP 2014 cl 4.1B: 800 m² (as made, " +
          "27 June 2014). Manly LEP 2013 sets no minimum; the packs do not tell the three plans' land apart, so 800 m² " +
          "holds everywhere and a lot in the former Manly council is understated, never overstated.",
      },
      {
        form: MDH,
        zones: ["R1", "R3"],
        clause: "Warringah LEP 2011, Pittwater LEP 2014, Manly LEP 2013",
        commenced: "2014-06-27",
        version: "2025-10-31",
        source: legislation("epi-2014-0320"),
        confirmed: false,
        minAreaM2: null,
        minWidthM: null,
        note: "Pittwater LEP 2014 cl 4.5A (density controls) and Manly LEP 2013 cl 4.1A's map were not read.",
      },
    ],
  },
  {
    council: "Canterbury-Bankstown",
    lep: "Canterbury-Bankstown LEP 2023",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Canterbury-Bankstown LEP 2023 cl 4.1A",
        commenced: "2026-02-06",
        version: "2026-02-06",
        source: legislation("epi-2023-0336"),
        confirmed: true,
        minAreaM2: 600,
        minWidthM: 15,
        note:
          "Area 1 of the Clause Application Map: 500 m² and 15 m attached, 700 m² and 20 m detached (cl 4.1A(2)); " +
          "Area 2: 600 m² and 15 m (cl 4.1A(4)); Belmore and Lakemba Precinct: 500 m² attached (cl 4.1A(6)). The map is " +
          "not in the packs, so the stricter 600 m² and 15 m. Last amended 2026 No 32 (LW 6 February 2026).",
      },
      {
        form: MDH,
        zones: ["R2", "R3", "R4"],
        clause: "Canterbury-Bankstown LEP 2023 cl 4.1B",
        commenced: "2026-02-06",
        version: "2026-02-06",
        source: legislation("epi-2023-0336"),
        confirmed: true,
        minAreaM2: 1000,
        minWidthM: 20,
        note:
          "1,000 m² and 20 m in Area 1 of the Clause Application Map and in the Belmore and Lakemba Precinct; none " +
          "elsewhere. The map is not in the packs, so Area 1's figures hold everywhere.",
      },
    ],
  },
  {
    council: "Ku-ring-gai",
    lep: "Ku-ring-gai LEP 2015",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Ku-ring-gai LEP 2015 cl 4.1A",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2025-12-12",
        source: legislation("epi-2015-0134"),
        confirmed: true,
        minAreaM2: 1015,
        minWidthM: null,
        note: "1,015 m² in Zone R2 (Ins 2025 No 597).",
      },
      {
        form: MDH,
        zones: ["R1", "R2", "R3", "R4"],
        clause: "Ku-ring-gai LEP 2015 cl 6.6(2)",
        commenced: "2025-11-14",
        version: "2025-12-12",
        source: legislation("epi-2015-0134"),
        confirmed: true,
        minAreaM2: 1200,
        minWidthM: 24,
        note:
          "1,200 m² and 24 m width and depth in a residential zone (30 m from 1,800 m²); 5,000 m² and 4,300 m² on Areas " +
          "1 and 2 of the Lot Size Map, not in the packs; last amended 2025 No 619 (LW 14 November 2025).",
      },
    ],
  },
  {
    council: "Penrith",
    lep: "Penrith LEP 2010",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Penrith LEP 2010 cl 4.1A",
        commenced: "2021-03-31",
        version: "2026-02-06",
        source: legislation("epi-2010-0540"),
        confirmed: true,
        minAreaM2: 650,
        minWidthM: null,
        note:
          "Zone R2: 650 m² attached, 750 m² detached, none on a battle-axe lot (cl 4.1A(3)); 360 m² attached on Area 13 " +
          "of the Lot Size Map (cl 10.4), not in the packs. Last amended 2021 No 153 (LW 31 March 2021).",
      },
      {
        form: DO,
        zones: ["R3"],
        clause: "Penrith LEP 2010 cl 4.1A",
        commenced: "2021-03-31",
        version: "2026-02-06",
        source: legislation("epi-2010-0540"),
        confirmed: true,
        minAreaM2: 550,
        minWidthM: null,
        note: "Zone R3: 550 m² attached (600 m² on a battle-axe lot), 650 m² detached (700 m²).",
      },
      {
        form: MDH,
        zones: ["R3", "R4"],
        clause: "Penrith LEP 2010 cl 4.1A",
        commenced: "2021-03-31",
        version: "2026-02-06",
        source: legislation("epi-2010-0540"),
        confirmed: true,
        minAreaM2: 1200,
        minWidthM: null,
        note: "1,200 m² in Zones R3 and R4.",
      },
    ],
  },
  {
    council: "Blacktown",
    lep: "Blacktown LEP 2015",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Blacktown LEP 2015 cl 4.1B",
        commenced: "2015-07-07",
        version: "2026-02-06",
        source: legislation("epi-2015-0239"),
        confirmed: true,
        minAreaM2: 500,
        minWidthM: null,
        note: "Zone R2: 500 m² attached, 600 m² detached (as made: LW 26 May 2015, in force 6 weeks later).",
      },
      {
        form: MDH,
        zones: ["R3"],
        clause: "Blacktown LEP 2015 cl 4.1B",
        commenced: "2015-07-07",
        version: "2026-02-06",
        source: legislation("epi-2015-0239"),
        confirmed: true,
        minAreaM2: 1800,
        minWidthM: null,
        note: "1,800 m² in Zone R3 (as made).",
      },
    ],
  },
  {
    council: "Ryde",
    lep: "Ryde LEP 2014",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Ryde LEP 2014 cl 4.1B",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2025-10-31",
        source: legislation("epi-2014-0608"),
        confirmed: true,
        minAreaM2: 580,
        minWidthM: 15,
        note: "580 m² and a primary road frontage of 15 m in Zone R2; last amended 2025 No 597.",
      },
      {
        form: MDH,
        zones: ["R1", "R2", "R3", "R4"],
        clause: "Ryde LEP 2014",
        commenced: "2014-09-12",
        version: "2025-10-31",
        source: legislation("epi-2014-0608"),
        confirmed: true,
        minAreaM2: null,
        minWidthM: null,
        note: "No clause of the plan sets a minimum lot size for multi dwelling housing.",
      },
    ],
  },
  {
    council: "Parramatta",
    lep: "Parramatta LEP 2023",
    rules: [
      {
        form: DO,
        zones: ["R2", "R3", "R4"],
        clause: "Parramatta LEP 2023 cl 4.1C",
        commenced: "2024-09-27",
        version: "2025-11-28",
        source: legislation("epi-2023-0117"),
        confirmed: true,
        minAreaM2: 600,
        minWidthM: 15,
        note:
          "600 m² and a 15 m frontage to a public road in Zones R2-R4; cl 6.11 prohibits dual occupancies on land marked " +
          "D on its map and admits detached ones only on a corner, a 2-street or a heritage lot. Last amended 2024 No 504.",
      },
      {
        form: MDH,
        zones: ["R1", "R2", "R3", "R4"],
        clause: "Parramatta LEP 2023",
        commenced: "2023-03-02",
        version: "2025-11-28",
        source: legislation("epi-2023-0117"),
        confirmed: true,
        minAreaM2: null,
        minWidthM: null,
        note: "No clause of the plan sets a minimum lot size for multi dwelling housing.",
      },
    ],
  },
  {
    council: "Georges River",
    lep: "Georges River LEP 2021",
    rules: [
      {
        form: DO,
        zones: ["R2", "R3", "R4"],
        clause: "Georges River LEP 2021 cl 4.1B",
        commenced: "2021-10-08",
        version: "2025-09-19",
        source: legislation("epi-2021-0587"),
        confirmed: true,
        minAreaM2: 650,
        minWidthM: 15,
        note:
          "650 m² and 15 m at the front building line (detached: 18 m, or 22 m with both dwellings facing the road); " +
          "1,000 m² in the Foreshore Scenic Protection Area (cl 4.1B(3)), not in the packs. As made.",
      },
      {
        form: MDH,
        zones: ["R3", "R4"],
        clause: "Georges River LEP 2021 cl 4.1B",
        commenced: "2021-10-08",
        version: "2025-09-19",
        source: legislation("epi-2021-0587"),
        confirmed: true,
        minAreaM2: 800,
        minWidthM: 18,
        note: "800 m² and 18 m (terraces: 21 m) in Zones R3 and R4. As made.",
      },
    ],
  },
  {
    council: "Campbelltown",
    lep: "Campbelltown LEP 2015",
    rules: [
      {
        form: DO,
        zones: ["R2", "R3"],
        clause: "Campbelltown LEP 2015 cl 4.1B(2)",
        commenced: "2016-03-11",
        version: "2025-11-28",
        source: legislation("epi-2015-0754"),
        confirmed: false,
        minAreaM2: null,
        minWidthM: null,
        note: "The figure is the Lot Size for Dual Occupancy Development Map's, which was not read.",
      },
      {
        form: MDH,
        zones: ["R1", "R3"],
        clause: "Campbelltown LEP 2015",
        commenced: "2016-03-11",
        version: "2025-11-28",
        source: legislation("epi-2015-0754"),
        confirmed: false,
        minAreaM2: null,
        minWidthM: null,
        note: "Figures are set for areas of the Lot Size Map and urban release areas (1,500 m² in Area 3 of Zone R3).",
      },
    ],
  },
  {
    council: "Hornsby",
    lep: "Hornsby LEP 2013",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Hornsby LEP 2013 cl 4.1C",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2025-10-31",
        source: legislation("epi-2013-0569"),
        confirmed: true,
        minAreaM2: 700,
        minWidthM: null,
        conservationAreaMinAreaM2: 800,
        note: "Zone R2: 700 m² attached, 800 m² detached; in a heritage conservation area 800 m² and 900 m² (Ins 2025 No 597).",
      },
      {
        form: MDH,
        zones: ["R1", "R2", "R3", "R4"],
        clause: "Hornsby LEP 2013",
        commenced: "2013-10-11",
        version: "2025-10-31",
        source: legislation("epi-2013-0569"),
        confirmed: true,
        minAreaM2: null,
        minWidthM: null,
        note: "No clause of the plan sets a minimum lot size for multi dwelling housing.",
      },
    ],
  },
  {
    council: "Sutherland Shire",
    lep: "Sutherland Shire LEP 2015",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Sutherland Shire LEP 2015 cl 4.1E",
        commenced: "2022-04-29",
        version: "2025-09-19",
        source: legislation("epi-2015-0319"),
        confirmed: true,
        minAreaM2: 600,
        minWidthM: null,
        note: "600 m² in Zone R2; last amended 2022 No 183 (LW 29 April 2022).",
      },
    ],
  },
  {
    council: "Liverpool",
    lep: "Liverpool LEP 2008",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Liverpool LEP 2008 cl 4.1AB",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2026-02-20",
        source: legislation("epi-2008-0403"),
        confirmed: false,
        minAreaM2: null,
        minWidthM: null,
        note:
          "600 m² in Zone R2, except on land the Lot Size for Dual Occupancy Development Map shows, where the map's " +
          "figure applies; the map was not read, so which lots take 600 m² is not known.",
      },
    ],
  },
  {
    council: "Randwick",
    lep: "Randwick LEP 2012",
    rules: [
      {
        form: DO,
        zones: ["R2"],
        clause: "Randwick LEP 2012 cl 4.1C",
        commenced: DUAL_OCCUPANCY_LOTS_2025,
        version: "2025-10-31",
        source: legislation("epi-2013-0036"),
        confirmed: true,
        minAreaM2: 550,
        minWidthM: null,
        note: "550 m² in Zone R2; last amended 2025 No 597.",
      },
    ],
  },
  {
    council: "The Hills Shire",
    lep: "The Hills LEP 2019",
    rules: [
      {
        form: DO,
        zones: ["R2", "R3"],
        clause: "The Hills LEP 2019 cl 4.1A",
        commenced: "2023-04-26",
        version: "2026-02-27",
        source: legislation("epi-2019-0596"),
        confirmed: true,
        minAreaM2: 600,
        minWidthM: null,
        note: "Zones R2 and R3: 600 m² attached, 700 m² detached (R1 and R4: 1,800 m²).",
      },
      {
        form: MDH,
        zones: ["R1", "R3", "R4"],
        clause: "The Hills LEP 2019 cl 4.1A",
        commenced: "2023-04-26",
        version: "2026-02-27",
        source: legislation("epi-2019-0596"),
        confirmed: true,
        minAreaM2: 1800,
        minWidthM: null,
        note: "1,800 m²; cl 4.1A(3) lets the council consent on less where design tests are met, which a screen cannot judge.",
      },
    ],
  },
];

// "The Hills Shire", "City of Ryde" and "RYDE" name one council: compared in lower case without the words around it.
const NOISE = /\b(the|city|of|council|municipal|shire)\b/g;
export const councilKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .replace(NOISE, " ")
    .replace(/\s+/g, " ")
    .trim();

const BY_KEY: ReadonlyMap<string, CouncilLep> = new Map(COUNCIL_LEPS.map((c) => [councilKey(c.council), c]));

// A score asks per lot: each name the packs give is keyed once (there are tens of them).
const BY_NAME = new Map<string, CouncilLep | null>();

/** The council's LEP, or null for a council the table does not hold. */
export function councilLep(lga: string): CouncilLep | null {
  let c = BY_NAME.get(lga);
  if (c === undefined) {
    c = BY_KEY.get(councilKey(lga)) ?? null;
    BY_NAME.set(lga, c);
  }
  return c;
}

/** The council's rule for a form in a zone; null where its table holds none for that zone. */
export function lepRule(council: CouncilLep, form: LepForm, zone: string): LepLotRule | null {
  return council.rules.find((r) => r.form === form && r.zones.includes(zone)) ?? null;
}
