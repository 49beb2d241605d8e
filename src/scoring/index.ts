// Public surface of the feasibility model.
export { scoreSite, ratingFor } from "./score.ts";
export { DEMO_DATA_REASON } from "./reasons.ts";
export { currentZone, normaliseZoneCode } from "./zones.ts";
export { CENTRE_ZONES, MODEL_VERSION, STATION_MODES } from "./constants.ts";
export type {
  ComponentKey,
  ControlAreas,
  ControlShare,
  DualOccupancyTest,
  EffectiveControls,
  FeasibilityResult,
  HeritageKind,
  LotPolygon,
  NearestStop,
  PolicyApplied,
  PolicyArea,
  Rating,
  ScoreComponent,
  SiteFacts,
  SubdivisionPotential,
  YieldBasis,
  YieldLimit,
  YieldOption,
  ZoneCategory,
  ZoneShare,
  ZoneSummary,
} from "./types.ts";
