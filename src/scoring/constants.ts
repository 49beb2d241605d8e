// Every number the feasibility model uses, in one place so docs/scoring.md can be checked against it.
// Policy figures come from the rules (rules/housing-sepp.ts) with their clauses; sources in docs/scoring.md section 5.
import { FLOOR_TO_FLOOR } from "./rules/apartment-design-guide.ts";
import {
  DUAL_OCCUPANCY,
  figure,
  LMR_AREA,
  LOW_RISE_FLATS,
  MID_RISE_INNER,
  MID_RISE_OUTER,
  MULTI_DWELLING,
  TERRACE_LOTS,
  TERRACES,
  TOD_APARTMENTS,
  TOD_AREA,
} from "./rules/housing-sepp.ts";

export const MODEL_VERSION = "feasibility-v3";

// Mean Earth radius (IUGG) for the local equirectangular projection.
export const EARTH_RADIUS_M = 6_371_008.8;

// Standard Instrument zones after the employment zones reform (in force 26 April 2023).
export const RESIDENTIAL_ZONES: readonly string[] = ["R1", "R2", "R3", "R4", "R5", "RU5", "MU1"];
export const EMPLOYMENT_ZONES: readonly string[] = ["E1", "E2", "E3", "E4", "E5", "SP4", "W4"];
// Business and industrial zones retired by the reform, read as the zone that most often replaced them.
export const RETIRED_ZONES: Readonly<Record<string, string>> = {
  B1: "E1",
  B2: "E1",
  B3: "E2",
  B4: "MU1",
  B5: "E3",
  B6: "E3",
  B7: "E3",
  B8: "E2",
  IN1: "E4",
  IN2: "E4",
  IN3: "E5",
  IN4: "W4",
};
// Land a "town centre" distance is measured to (docs/design.md section 10; the SEPP's Town Centres Map is not in the packs).
export const CENTRE_ZONES: readonly string[] = ["E1", "E2", "MU1"];
// Transport modes that count as a station for the policies (railway, metro, light rail).
export const STATION_MODES: readonly string[] = ["train", "rail", "metro", "light_rail", "light rail", "tram"];

// One dwelling is assumed to stand on every residential lot today.
export const EXISTING_DWELLINGS = 1;
// Below this area a residential lot holds no more than the dwelling already there.
export const MIN_BUILDABLE_AREA_M2 = 100;

// Apartment yield from floor space (v1's figures): saleable share of GFA and average unit size.
export const APARTMENT_EFFICIENCY = 0.75;
export const AVERAGE_UNIT_M2 = 85;
// Townhouse (multi dwelling housing) gross floor area per dwelling: a three-bedroom townhouse.
export const TOWNHOUSE_M2 = 120;
// Site each townhouse needs (its footprint, private open space and share of access): the smallest terrace lot s 173(3)
// allows, used as a screen for townhouses too.
export const TOWNHOUSE_SITE_M2 = figure(TERRACE_LOTS, "minAreaM2");

// Storeys from a height control (Apartment Design Guide 2015 Part 4C floor to floor heights, rules/apartment-design-guide.ts).
export const RESIDENTIAL_STOREY_M = FLOOR_TO_FLOOR.residentialM;
export const GROUND_COMMERCIAL_STOREY_M = FLOOR_TO_FLOOR.groundCommercialM;
// Height taken by the roof, parapet or lift overrun above the top storey (a screening assumption): 9.5 m then holds
// 2 storeys, as the policy describes its 9.5 m forms, and 22 m holds the 6 storeys of s 175(2).
export const ROOF_ALLOWANCE_M = 1;
// Front setback of an apartment building (a screening assumption: the Apartment Design Guide leaves street setbacks
// to the council's development control plan, where 6 m is common for residential flat buildings).
export const FRONT_SETBACK_M = 6;
// Share of the site houses, dual occupancies, townhouses, terraces and 2-storey flats may build over (a screening
// assumption: the rest is private open space, landscaping and access).
export const LOW_RISE_SITE_COVERAGE = 0.5;
// Storeys the Apartment Design Guide's envelope counts beyond its last band, at most (a guard on unmapped heights).
export const MAX_STOREYS = 200;

// The Housing SEPP 2021's figures, read from its rules (rules/housing-sepp.ts, each with its clause and commencement).
// Dual occupancy, s 168(2) (R1-R4).
export const DUAL_OCCUPANCY_ZONES: readonly string[] = DUAL_OCCUPANCY.zones;
export const DUAL_OCC_MIN_AREA_M2 = figure(DUAL_OCCUPANCY, "minAreaM2");
export const DUAL_OCC_MIN_FRONTAGE_M = figure(DUAL_OCCUPANCY, "minWidthM");

// Low and mid rise housing areas, s 163: 800 m (inner 400 m) of a station or town centre.
export const LMR_OUTER_M = LMR_AREA.outerM;
export const LMR_INNER_M = LMR_AREA.innerM;
export const LMR_ZONES: readonly string[] = LMR_AREA.zones;
// Flood share at or above which the lot is treated as the SEPP's excluded flood land (a screening assumption).
export const LMR_FLOOD_EXCLUSION_SHARE = 0.5;

// Multi dwelling housing (townhouses), s 172(2): R1-R4 in an LMR area; R1 and R3 under the Standard Instrument.
export const MULTI_DWELLING_MIN_AREA_M2 = figure(MULTI_DWELLING, "minAreaM2");
export const MULTI_DWELLING_MIN_FRONTAGE_M = figure(MULTI_DWELLING, "minWidthM");
export const MULTI_DWELLING_FSR = figure(MULTI_DWELLING, "maxFsr");
// Multi dwelling housing (terraces), s 172(3), and the subdivision standard of s 173(3) (R1-R3).
export const TERRACE_MIN_AREA_M2 = figure(TERRACES, "minAreaM2");
export const TERRACE_MIN_FRONTAGE_M = figure(TERRACES, "minWidthM");
export const TERRACE_LOT_M2 = figure(TERRACE_LOTS, "minAreaM2");
export const TERRACE_LOT_WIDTH_M = figure(TERRACE_LOTS, "minWidthM");
export const TERRACE_ZONES: readonly string[] = TERRACE_LOTS.zones;
// Residential flat buildings in R1/R2 (manor-house scale), s 179(2).
export const LOW_RISE_RFB_MIN_AREA_M2 = figure(LOW_RISE_FLATS, "minAreaM2");
export const LOW_RISE_RFB_MIN_FRONTAGE_M = figure(LOW_RISE_FLATS, "minWidthM");
export const LOW_RISE_RFB_FSR = figure(LOW_RISE_FLATS, "maxFsr");
export const LOW_RISE_RFB_HEIGHT_M = figure(LOW_RISE_FLATS, "maxHeightM");
// Residential flat buildings in R3/R4, s 180(2) inner and s 180(3) outer.
export const MID_RISE_INNER_FSR = figure(MID_RISE_INNER, "maxFsr");
export const MID_RISE_INNER_HEIGHT_M = figure(MID_RISE_INNER, "maxHeightM");
export const MID_RISE_OUTER_FSR = figure(MID_RISE_OUTER, "maxFsr");
export const MID_RISE_OUTER_HEIGHT_M = figure(MID_RISE_OUTER, "maxHeightM");

// Transport oriented development, Chapter 5: 400 m of a listed station, 2.5:1, 22 m, 21 m wide.
export const TOD_RADIUS_M = TOD_AREA.radiusM;
export const TOD_FSR = figure(TOD_APARTMENTS, "maxFsr");
export const TOD_HEIGHT_M = figure(TOD_APARTMENTS, "maxHeightM");
export const TOD_MIN_FRONTAGE_M = figure(TOD_APARTMENTS, "minWidthM");
export const TOD_ZONES: readonly string[] = TOD_APARTMENTS.zones;

// Uplift points: 0 for no uplift; 50 for one more dwelling, then each eightfold uplift halves what is left to 100
// (100 − 50 × n^(−1/3)): 5 more dwellings give 71, 52 give 87, 77 give 88; 100 is never reached.
export const UPLIFT_FLOOR_POINTS = 50;
export const UPLIFT_MAX_POINTS = 100;
export const UPLIFT_HALVING_MULTIPLE = 8;

// Constraint factors (each multiplies the points; docs/scoring.md section 8 justifies them).
export const HERITAGE_ITEM_FACTOR = 0.4;
export const HERITAGE_AREA_FACTOR = 0.7;
export const FLOOD_WEIGHT = 0.5; // factor 1 - 0.5 x flood share
export const BUSHFIRE_WEIGHT = 0.3; // factor 1 - 0.3 x bushfire share

// Access factor: 1 within FULL of a station, linear down to FLOOR at ZERO and beyond (or with no stop).
export const ACCESS_FULL_M = 400;
export const ACCESS_ZERO_M = 1600;
export const ACCESS_FLOOR = 0.8;

// Shape factor: 1 at regularity 0.90 or more, linear down to FLOOR at 0.50 or less.
export const REGULARITY_LOW = 0.5;
export const REGULARITY_HIGH = 0.9;
export const SHAPE_FLOOR = 0.85;

// Rating thresholds on the 0-100 score.
export const RATING_HIGH = 70;
export const RATING_MEDIUM = 45;
