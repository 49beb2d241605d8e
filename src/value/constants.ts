// The valuation model's own figures, not the organisation's assumptions; each one's basis is in docs/valuation.md.

export const VALUE_MODEL = "rlv-v1";

/** Statutory fees (DA, construction certificate, long service levy) as a share of construction: a screening allowance. */
export const STATUTORY_PCT = 1;

/** Construction-side costs drawn evenly over the programme: half is outstanding on average. */
export const DRAWDOWN_SHARE = 0.5;

/** Floor space of what stands, per dwelling, for the as-is value (strata: the yield's 85 m² average unit). */
export const AS_IS_FLOOR_M2 = { house: 180, dual_occupancy: 130, strata: 85 } as const;

/** Employment buildings whose floor space is not recorded: 0.5:1 of the lot (feasibility v2's assumption). */
export const EMPLOYMENT_FSR_ASSUMED = 0.5;

/** A shop top housing scheme's housing floor space per dwelling: 85 m² saleable at 75% (docs/scoring.md section 7). */
export const HOUSING_GFA_PER_DWELLING = 85 / 0.75;

/** Sensitivity: each figure moves sale prices or construction costs alone by this share. */
export const SENSITIVITY_STEP = 0.1;
