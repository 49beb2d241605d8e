// scoreSite: SiteFacts in, a scored and explained FeasibilityResult out; pure and deterministic.
import { LMR_OUTER_M, MODEL_VERSION, RATING_HIGH, RATING_MEDIUM } from "./constants.ts";
import { constraintFactors, scoreSteps } from "./components.ts";
import { amalgamationReasons, amalgamationShown } from "./amalgamation.ts";
import { beyondText, existingOfLots, existingShown } from "./existing.ts";
import { formatNumber, roundTo, share } from "./format.ts";
import { shownShape } from "./geometry.ts";
import { lepPlaceOf } from "./lep-site.ts";
import { landUseFor } from "./permissibility.ts";
import { chapter6Exclusion, isStation, policyApplied, policyAreaShown, policyFor, reachOf } from "./policy.ts";
import { buildReasons } from "./reasons.ts";
import { TOD_AREA } from "./rules/housing-sepp.ts";
import type { ExistingShown, FeasibilityResult, NearestStop, PlaceReach, Rating, Reach, SiteFacts } from "./types.ts";
import { dualOccupancyTest, estimateYield, subdivisionPotential } from "./yield.ts";
import {
  currentZone,
  dominantZone,
  effectiveControls,
  summariseControls,
  summariseZones,
  zoneCategory,
} from "./zones.ts";

export function ratingFor(score: number): Rating {
  return score >= RATING_HIGH ? "high" : score >= RATING_MEDIUM ? "medium" : "low";
}

function shownStop(stop: NearestStop | null | undefined): NearestStop | null {
  if (stop === null || stop === undefined || !Number.isFinite(stop.distanceM)) return null;
  return { name: stop.name, mode: stop.mode, distanceM: roundTo(Math.max(0, stop.distanceM)) };
}

// The facts' station when given; otherwise the nearest stop when it is a station.
function stationOf(facts: SiteFacts, stop: NearestStop | null): NearestStop | null {
  if (facts.nearestStation !== undefined) return shownStop(facts.nearestStation);
  return stop !== null && isStation(stop) ? stop : null;
}

function heritageKindOf(facts: SiteFacts, heritageShare: number): "item" | "conservation_area" | null {
  const k = facts.heritageKind;
  if (k === undefined) return heritageShare > 0 ? "item" : null;
  return k.item ? "item" : k.conservationArea ? "conservation_area" : heritageShare > 0 ? "item" : null;
}

// Land in a TOD area is outside Chapter 6 too (s 164(1)).
const IN_TOD_AREA = `the lot is in a Transport Oriented Development Area (${TOD_AREA.clause})`;

function unitsText(y: ReturnType<typeof estimateYield>, existing: ExistingShown): string {
  if (y.upliftDwellings === null) return "uplift not estimated";
  const n = y.upliftDwellings;
  return `${formatNumber(n)} dwelling${n === 1 ? "" : "s"} beyond ${beyondText(existing)}`;
}

// Employment land's floor space beyond what stands, for information (never scored): known only where both are.
function floorSpaceUplift(employment: boolean, gfaM2: number | null, existing: ExistingShown): number | null {
  if (!employment || gfaM2 === null || existing.floorSpaceM2 === undefined) return null;
  return Math.max(0, gfaM2 - existing.floorSpaceM2);
}

// Every later step works from the rounded figures shown, so a planner can redo the sums by hand.
// Distances as shown: whole metres, walking never below the straight line it was measured beside.
function shownPlace(p: PlaceReach | null): PlaceReach | null {
  if (p === null || !Number.isFinite(p.straightM)) return null;
  const straightM = roundTo(Math.max(0, p.straightM));
  const walked = p.walkingM === null || !Number.isFinite(p.walkingM) ? null : roundTo(Math.max(0, p.walkingM));
  return { name: p.name, walkingM: walked === null ? null : Math.max(walked, straightM), straightM };
}
const shownReach = (r: Reach): Reach => ({ station: shownPlace(r.station), centre: shownPlace(r.centre) });

export function scoreSite(facts: SiteFacts): FeasibilityResult {
  const areaM2 = roundTo(Math.max(0, facts.areaM2));
  // A lots pack measured the lot when it was built: a batch row does not measure it again.
  const shape = facts.shape ?? shownShape(facts.polygon);
  const { frontageM, regularity } = shape;

  const zones = summariseZones(facts.zones);
  const dominant = dominantZone(zones);
  const zone = dominant === null ? null : currentZone(dominant.code);
  const category = dominant === null ? null : zoneCategory(dominant.code);
  const controlAreas = summariseControls(facts.controls, zones);
  const controls = effectiveControls(zones, controlAreas, facts.controls !== undefined);
  const subdivision = subdivisionPotential(areaM2, controls.minLotSizeM2);

  const hazards = { flood: share(facts.hazards.flood), bushfire: share(facts.hazards.bushfire) };
  const heritage = { share: share(facts.heritageShare), names: facts.heritageNames.slice() };
  const heritageKind = heritageKindOf(facts, heritage.share);
  const transport = shownStop(facts.nearestStop);
  const station = stationOf(facts, transport);
  const centre = facts.centreDistanceM;
  // Beyond the 800 m of the widest policy a centre changes nothing, and v1 packs search no further.
  const centreShown =
    centre === undefined || centre === null || !Number.isFinite(centre) ? null : roundTo(Math.max(0, centre));
  const centreDistanceM = centreShown !== null && centreShown <= LMR_OUTER_M ? centreShown : null;

  const reach = facts.reach ? shownReach(facts.reach) : null;
  const policy = policyFor({
    zone,
    station,
    reach,
    flood: hazards.flood,
    bushfire: hazards.bushfire,
    heritageItem: heritageKind === "item",
    lga: facts.lga,
  });
  const hazardsAndItem = {
    flood: hazards.flood,
    bushfire: hazards.bushfire,
    heritageItem: heritageKind === "item",
    lga: facts.lga,
    station,
  };
  const chapter6ExcludedBy = policy.area === "tod" ? IN_TOD_AREA : chapter6Exclusion(hazardsAndItem);
  const landUse = landUseFor({ zone, policy: policy.area, chapter6ExcludedBy });
  const dualOccupancy = dualOccupancyTest(landUse, areaM2, frontageM);
  // An amalgamation counts its uplift beyond what stands on every lot bought.
  const existing = facts.amalgamation
    ? existingOfLots(facts.amalgamation.existing)
    : existingShown(facts.existing, category);
  const y = estimateYield({
    areaM2,
    frontageM,
    zone,
    category,
    lepFsr: controls.fsr,
    lepHeightM: controls.heightM,
    subdivision,
    minLotSizeM2: controls.minLotSizeM2,
    policy: policy.area,
    landUse,
    existingDwellings: existing.dwellings,
    lep: lepPlaceOf(facts),
  });

  const constraints = constraintFactors(heritageKind, hazards.flood, hazards.bushfire);
  // Employment land is never rated on a housing formula (docs/design.md section 13): its potential counts nothing.
  const employment = category === "employment";
  const steps = scoreSteps({
    units: employment ? 0 : y.upliftUnits,
    unitsText: employment ? "employment land: not assessed for housing" : unitsText(y, existing),
    constraints,
    heritageText:
      heritageKind === "item" ? "heritage item" : heritageKind === "conservation_area" ? "conservation area" : null,
    flood: hazards.flood,
    bushfire: hazards.bushfire,
    access: station ?? transport,
    regularity,
  });

  // One object in the answer's key order; the reasons are read from it once the rest is in place.
  const result: FeasibilityResult = {
    modelVersion: MODEL_VERSION,
    lotId: facts.lotId,
    areaM2,
    frontageM,
    frontageBasis: shape.frontageBasis ?? "estimated",
    regularity,
    zones,
    dominantZone: dominant,
    zoneCategory: category,
    controls,
    controlAreas,
    gfaPotentialM2: y.gfaM2,
    dwellingYield: y.dwellings,
    yieldBasis: y.basis,
    subdivision,
    dualOccupancy,
    hazards,
    heritage,
    transport,
    existing,
    existingDwellings: y.existingDwellings,
    upliftDwellings: y.upliftDwellings,
    upliftFloorSpaceM2: floorSpaceUplift(employment, y.gfaM2, existing),
    upliftUnits: y.upliftUnits,
    heritageKind,
    station,
    centreDistanceM,
    policy: policyApplied(policy),
    policyArea: policyAreaShown(policy),
    reach: reachOf({ station, reach }),
    housingPermitted: landUse.housingPermitted,
    yieldOptions: y.options,
    demoData: facts.demoData,
    score: steps.score,
    rating: ratingFor(steps.score),
    components: steps.components,
    reasons: [],
  };
  result.reasons = buildReasons(result, steps.components, facts.controls !== undefined, {
    landUse,
    chapter6ExcludedBy,
  });
  if (facts.amalgamation) {
    result.amalgamation = amalgamationShown(facts.amalgamation);
    const zone = dominant === null ? null : dominant.code;
    // After the demo-data warning, which always leads.
    result.reasons.splice(
      result.demoData ? 1 : 0,
      0,
      ...amalgamationReasons(facts.amalgamation, { areaM2, frontageM, zone }),
    );
  }
  return result;
}
