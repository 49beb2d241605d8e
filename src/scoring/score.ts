// scoreSite: SiteFacts in, a scored and explained FeasibilityResult out; pure and deterministic.
import { MODEL_VERSION, RATING_HIGH, RATING_MEDIUM } from "./constants.ts";
import { constraintsComponent, developmentComponent, geometryComponent, transportComponent } from "./components.ts";
import { clamp, roundTo, share } from "./format.ts";
import { measureLot } from "./geometry.ts";
import { buildReasons } from "./reasons.ts";
import type { FeasibilityResult, NearestStop, Rating, SiteFacts } from "./types.ts";
import { dualOccupancyTest, dwellingYield, gfaPotential, subdivisionPotential } from "./yield.ts";
import { dominantZone, effectiveControls, summariseControls, summariseZones, zoneCategory } from "./zones.ts";

export function ratingFor(score: number): Rating {
  return score >= RATING_HIGH ? "high" : score >= RATING_MEDIUM ? "medium" : "low";
}

function shownStop(stop: NearestStop | null): NearestStop | null {
  if (stop === null || !Number.isFinite(stop.distanceM)) return null;
  return { name: stop.name, mode: stop.mode, distanceM: roundTo(Math.max(0, stop.distanceM)) };
}

// Every later step works from the rounded figures shown, so a planner can redo the sums by hand.
export function scoreSite(facts: SiteFacts): FeasibilityResult {
  const areaM2 = roundTo(Math.max(0, facts.areaM2));
  const shape = measureLot(facts.polygon);
  const frontageM = roundTo(shape.rectWidthM, 1);
  const regularity = shape.rectAreaM2 > 0 ? roundTo(clamp(shape.planarAreaM2 / shape.rectAreaM2, 0, 1), 2) : 0;

  const zones = summariseZones(facts.zones);
  const dominant = dominantZone(zones);
  const category = dominant === null ? null : zoneCategory(dominant.code);
  const controlAreas = summariseControls(facts.controls, zones);
  const controls = effectiveControls(zones, controlAreas, facts.controls !== undefined);
  const gfaPotentialM2 = gfaPotential(areaM2, controls.fsr);
  const subdivision = subdivisionPotential(areaM2, controls.minLotSizeM2);
  const dualOccupancy = dualOccupancyTest(dominant?.code ?? null, areaM2, frontageM);
  const dwellings = dwellingYield({ areaM2, dominant, category, gfaM2: gfaPotentialM2, subdivision, dualOccupancy });

  const hazards = { flood: share(facts.hazards.flood), bushfire: share(facts.hazards.bushfire) };
  const heritage = { share: share(facts.heritageShare), names: facts.heritageNames.slice() };
  const transport = shownStop(facts.nearestStop);

  const components = [
    developmentComponent(dwellings.dwellings, dwellings.basis),
    constraintsComponent(hazards.flood, hazards.bushfire, heritage.share),
    transportComponent(transport),
    geometryComponent(frontageM, regularity),
  ];
  const score = components.reduce((sum, c) => sum + c.points, 0);

  const base = {
    lotId: facts.lotId,
    areaM2,
    frontageM,
    regularity,
    zones,
    dominantZone: dominant,
    zoneCategory: category,
    controls,
    controlAreas,
    gfaPotentialM2,
    dwellingYield: dwellings.dwellings,
    yieldBasis: dwellings.basis,
    subdivision,
    dualOccupancy,
    hazards,
    heritage,
    transport,
    demoData: facts.demoData,
  };
  return {
    modelVersion: MODEL_VERSION,
    ...base,
    score,
    rating: ratingFor(score),
    components,
    reasons: buildReasons(base, facts.controls !== undefined),
  };
}
