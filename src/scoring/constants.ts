// Every number the feasibility model uses, in one place so docs/scoring.md can be checked against it.

export const MODEL_VERSION = "feasibility-v1";

// Mean Earth radius (IUGG) for the local equirectangular projection.
export const EARTH_RADIUS_M = 6_371_008.8;

// Zone groups (NSW Standard Instrument codes); the dominant zone decides the group.
export const APARTMENT_ZONES: readonly string[] = ["R4", "B4", "MU1"];
export const LOW_RISE_ZONES: readonly string[] = ["R1", "R2", "R3", "R5", "RU5"];
export const DUAL_OCCUPANCY_ZONES: readonly string[] = ["R1", "R2", "R3"];

// Dual occupancy test used by this project (lot area and estimated frontage).
export const DUAL_OCC_MIN_AREA_M2 = 580;
export const DUAL_OCC_MIN_FRONTAGE_M = 15;

// Apartment yield: saleable share of GFA and average unit size.
export const APARTMENT_EFFICIENCY = 0.75;
export const AVERAGE_UNIT_M2 = 85;

// Below this area a low-rise lot is not counted as a dwelling site.
export const MIN_BUILDABLE_AREA_M2 = 100;

// Development potential points by dwelling yield (first row whose minimum is met, top down).
export const YIELD_POINTS: readonly { minYield: number; points: number }[] = [
  { minYield: 50, points: 40 },
  { minYield: 10, points: 37 },
  { minYield: 3, points: 32 },
  { minYield: 2, points: 25 },
  { minYield: 1, points: 10 },
  { minYield: 0, points: 0 },
];
export const DEVELOPMENT_MAX = 40;
// Residential zone whose yield cannot be estimated (apartment zone with no FSR mapped).
export const UNKNOWN_YIELD_POINTS = 10;

// Site constraints: start from the maximum and deduct per share of the lot affected.
export const CONSTRAINTS_MAX = 30;
export const FLOOD_PENALTY = 15;
export const BUSHFIRE_PENALTY = 10;
export const HERITAGE_PENALTY = 10;

// Transport access: full points up to FULL, linear to zero at ZERO.
export const TRANSPORT_MAX = 15;
export const TRANSPORT_FULL_M = 400;
export const TRANSPORT_ZERO_M = 1600;

// Lot geometry: frontage points reach the maximum at the dual occupancy frontage; regularity ramps between LOW and HIGH.
export const GEOMETRY_MAX = 15;
export const FRONTAGE_POINTS = 8;
export const FRONTAGE_FULL_M = 15;
export const REGULARITY_POINTS = 7;
export const REGULARITY_LOW = 0.5;
export const REGULARITY_HIGH = 0.9;

// Rating thresholds on the 0-100 score.
export const RATING_HIGH = 70;
export const RATING_MEDIUM = 45;
