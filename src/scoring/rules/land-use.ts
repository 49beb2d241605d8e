// The Standard Instrument—Principal Local Environmental Plan's Land Use Table, for housing only: per zone, whether
// each form of housing the model counts is permitted with consent, prohibited, or left to each council's LEP. Every
// LEP made on the Standard Instrument adopts its mandated entries; a council may add uses to a zone's lists only where
// the table leaves them open. So "council_optional" means the Standard Instrument neither mandates nor prohibits the
// form: the council's own LEP decides, and the model does not count it (a reason says to check the LEP).
//
// Read from the Standard Instrument (Local Environmental Plans) Order 2006 as amended, including the Land Use Zones
// Order 2022 (employment zones, in force 26 April 2023) and the conservation zones' renaming (1 December 2021). The
// official text was not reachable from here; entries marked "(not confirmed)" in a comment are the model's best
// reading and are said to be uncertain. State policies (the Housing SEPP) add permissions on top: see
// rules/housing-sepp.ts and src/scoring/permissibility.ts.

export type HousingForm =
  | "dwelling_house"
  | "dual_occupancy"
  | "multi_dwelling_housing"
  | "residential_flat_building"
  | "shop_top_housing";

export type Permissibility = "permitted" | "prohibited" | "council_optional";

export const HOUSING_FORMS: readonly HousingForm[] = [
  "dwelling_house",
  "dual_occupancy",
  "multi_dwelling_housing",
  "residential_flat_building",
  "shop_top_housing",
];

/** The Standard Instrument's words for each form (its Dictionary's terms), as reasons print them. */
export const FORM_TERMS: Readonly<Record<HousingForm, string>> = {
  dwelling_house: "dwelling houses",
  dual_occupancy: "dual occupancies",
  multi_dwelling_housing: "multi dwelling housing",
  residential_flat_building: "residential flat buildings",
  shop_top_housing: "shop top housing",
};

/** One zone's table, for housing. */
export interface ZoneLandUse {
  readonly zone: string;
  readonly name: string;
  /** As a reason cites it: "Standard Instrument LEP, Land Use Table, zone E4 General Industrial". */
  readonly citation: string;
  /** ISO date the zone's table took its current form (the Order as made, or the amending Order). */
  readonly commenced: string;
  readonly forms: Readonly<Record<HousingForm, Permissibility>>;
  /** What the table says of housing, when it says it of every form at once. */
  readonly says: string | null;
}

// The Order as made (published 31 March 2006); later amendments to these zones' housing entries were not traced.
const SI_2006 = "2006-03-31";
// The Land Use Zones Order 2022: employment zones E1-E5, MU1, SP4, W4 (and SP5), in force 26 April 2023.
const EMPLOYMENT_2023 = "2023-04-26";
// Environment protection zones E1-E4 renamed conservation zones C1-C4.
const CONSERVATION_2021 = "2021-12-01";

const P: Permissibility = "permitted";
const X: Permissibility = "prohibited";
const C: Permissibility = "council_optional";

// Forms in HOUSING_FORMS order: dwelling house, dual occupancy, multi dwelling housing, residential flat building,
// shop top housing.
type Row = readonly [Permissibility, Permissibility, Permissibility, Permissibility, Permissibility];

function zone(code: string, name: string, commenced: string, row: Row, says: string | null = null): ZoneLandUse {
  const forms = Object.fromEntries(HOUSING_FORMS.map((f, i) => [f, row[i] as Permissibility])) as Record<
    HousingForm,
    Permissibility
  >;
  return {
    zone: code,
    name,
    citation: `Standard Instrument LEP, Land Use Table, zone ${code} ${name}`,
    commenced,
    forms,
    says,
  };
}

const NO_HOUSING = "residential accommodation prohibited";
const UNLISTED = "no housing among the zone's uses, and what the table does not list is prohibited";

/** The table per zone code (current codes; a retired B or IN zone is read as its successor before this). */
export const LAND_USE_TABLES: Readonly<Record<string, ZoneLandUse>> = Object.fromEntries(
  [
    // R1 mandates dwelling houses, multi dwelling housing, residential flat buildings and shop top housing; dual
    // occupancies are not among its mandated uses (not confirmed).
    zone("R1", "General Residential", SI_2006, [P, C, P, P, P]),
    // R2 mandates dwelling houses only. Housing SEPP 2021 s 166 permits dual occupancies in R2 wherever Chapter 6 applies.
    zone("R2", "Low Density Residential", SI_2006, [P, C, C, C, C]),
    // R3 mandates multi dwelling housing (with attached and semi-detached dwellings); dwelling houses are not among its
    // mandated uses, though most councils add them (not confirmed).
    zone("R3", "Medium Density Residential", SI_2006, [C, C, P, C, C]),
    // R4 mandates residential flat buildings; shop top housing is left to councils (not confirmed).
    zone("R4", "High Density Residential", SI_2006, [C, C, C, P, C]),
    zone("R5", "Large Lot Residential", SI_2006, [P, C, C, C, C]),
    // Rural zones: dwelling houses mandated in RU1, RU2 and RU4; RU3 admits only forestry; RU5 and RU6 leave housing to
    // councils (not confirmed for RU5, RU6).
    zone("RU1", "Primary Production", SI_2006, [P, C, C, C, C]),
    zone("RU2", "Rural Landscape", SI_2006, [P, C, C, C, C]),
    zone("RU3", "Forestry", SI_2006, [X, X, X, X, X], "only uses authorised under the Forestry Act permitted"),
    zone("RU4", "Primary Production Small Lots", SI_2006, [P, C, C, C, C]),
    zone("RU5", "Village", SI_2006, [C, C, C, C, C]),
    zone("RU6", "Transition", SI_2006, [C, C, C, C, C]),
    // Employment zones. E1 and E2 mandate shop top housing; E3 prohibits residential accommodation, shop top housing
    // excepted where a council adds it (not confirmed); E4 and E5 prohibit residential accommodation.
    zone("E1", "Local Centre", EMPLOYMENT_2023, [C, C, C, C, P]),
    zone("E2", "Commercial Centre", EMPLOYMENT_2023, [C, C, C, C, P]),
    zone("E3", "Productivity Support", EMPLOYMENT_2023, [X, X, X, X, C]),
    zone("E4", "General Industrial", EMPLOYMENT_2023, [X, X, X, X, X], NO_HOUSING),
    zone("E5", "Heavy Industrial", EMPLOYMENT_2023, [X, X, X, X, X], NO_HOUSING),
    // MU1 mandates shop top housing; residential flat buildings are left to councils, though many LEPs add them (not
    // confirmed).
    zone("MU1", "Mixed Use", EMPLOYMENT_2023, [C, C, C, C, P]),
    // W4 took the industrial working waterfront (IN4): residential accommodation prohibited (not confirmed).
    zone("W4", "Working Waterfront", EMPLOYMENT_2023, [X, X, X, X, X], NO_HOUSING),
    // SP4 Enterprise and SP5 Metropolitan Centre came with the reform; their housing entries are left to councils
    // (not confirmed).
    zone("SP4", "Enterprise", EMPLOYMENT_2023, [C, C, C, C, C]),
    zone("SP5", "Metropolitan Centre", EMPLOYMENT_2023, [C, C, C, C, C]),
    // SP1 and SP2 permit only the purpose shown on the Land Zoning Map (and what is incidental to it).
    zone(
      "SP1",
      "Special Activities",
      SI_2006,
      [X, X, X, X, X],
      "only the purpose shown on the Land Zoning Map permitted",
    ),
    zone("SP2", "Infrastructure", SI_2006, [X, X, X, X, X], "only the purpose shown on the Land Zoning Map permitted"),
    zone("SP3", "Tourist", SI_2006, [C, C, C, C, C]),
    // Recreation zones list no housing, and any development they do not list is prohibited.
    zone("RE1", "Public Recreation", SI_2006, [X, X, X, X, X], UNLISTED),
    zone("RE2", "Private Recreation", SI_2006, [X, X, X, X, X], UNLISTED),
    // Conservation zones: C1 admits only uses under the National Parks and Wildlife Act; C2 and C3 mandate the
    // prohibition of multi dwelling housing and residential flat buildings and leave dwelling houses to councils; C4
    // mandates dwelling houses.
    zone(
      "C1",
      "National Parks and Nature Reserves",
      CONSERVATION_2021,
      [X, X, X, X, X],
      "only uses authorised under the National Parks and Wildlife Act 1974 permitted",
    ),
    zone("C2", "Environmental Conservation", CONSERVATION_2021, [C, C, X, X, C]),
    zone("C3", "Environmental Management", CONSERVATION_2021, [C, C, X, X, C]),
    zone("C4", "Environmental Living", CONSERVATION_2021, [P, C, C, C, C]),
    // Waterway zones list no housing (W1-W3).
    zone("W1", "Natural Waterways", SI_2006, [X, X, X, X, X], UNLISTED),
    zone("W2", "Recreational Waterways", SI_2006, [X, X, X, X, X], UNLISTED),
    zone("W3", "Working Waterways", SI_2006, [X, X, X, X, X], UNLISTED),
  ].map((t) => [t.zone, t]),
);

/** The zone's table, or null for a code the Standard Instrument does not have. */
export function landUseTable(zone: string): ZoneLandUse | null {
  return LAND_USE_TABLES[zone] ?? null;
}
