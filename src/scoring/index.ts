// Public surface of the feasibility model.
export { scoreSite, ratingFor } from "./score.ts";
export { DEMO_DATA_REASON } from "./reasons.ts";
export { MODEL_VERSION } from "./constants.ts";
export type {
  ComponentKey,
  ControlAreas,
  ControlShare,
  DualOccupancyTest,
  EffectiveControls,
  FeasibilityResult,
  LotPolygon,
  NearestStop,
  Rating,
  ScoreComponent,
  SiteFacts,
  SubdivisionPotential,
  YieldBasis,
  ZoneCategory,
  ZoneShare,
  ZoneSummary,
} from "./types.ts";
