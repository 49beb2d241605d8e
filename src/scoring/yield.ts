// Floor space, subdivision, dual occupancy and dwelling yield from the shown area, frontage and controls.
import {
  APARTMENT_EFFICIENCY,
  AVERAGE_UNIT_M2,
  DUAL_OCC_MIN_AREA_M2,
  DUAL_OCC_MIN_FRONTAGE_M,
  DUAL_OCCUPANCY_ZONES,
  MIN_BUILDABLE_AREA_M2,
} from "./constants.ts";
import { roundTo } from "./format.ts";
import type { DualOccupancyTest, SubdivisionPotential, YieldBasis, ZoneCategory, ZoneSummary } from "./types.ts";

export function gfaPotential(areaM2: number, fsr: number | null): number | null {
  return fsr === null ? null : roundTo(areaM2 * fsr);
}

export function subdivisionPotential(areaM2: number, minLotSizeM2: number | null): SubdivisionPotential {
  if (minLotSizeM2 === null || minLotSizeM2 <= 0) return { lots: null, possible: false };
  // The epsilon keeps 900 / 450 at exactly 2 despite binary division.
  const lots = Math.floor(areaM2 / minLotSizeM2 + 1e-9);
  return { lots, possible: lots >= 2 };
}

export function dualOccupancyTest(zoneCode: string | null, areaM2: number, frontageM: number): DualOccupancyTest {
  const zoneAllows = zoneCode !== null && DUAL_OCCUPANCY_ZONES.includes(zoneCode);
  const areaOk = areaM2 >= DUAL_OCC_MIN_AREA_M2;
  const frontageOk = frontageM >= DUAL_OCC_MIN_FRONTAGE_M;
  return {
    eligible: zoneAllows && areaOk && frontageOk,
    zoneAllows,
    areaOk,
    frontageOk,
    minAreaM2: DUAL_OCC_MIN_AREA_M2,
    minFrontageM: DUAL_OCC_MIN_FRONTAGE_M,
  };
}

export interface DwellingYield {
  dwellings: number | null;
  basis: YieldBasis;
}

export function dwellingYield(input: {
  areaM2: number;
  dominant: ZoneSummary | null;
  category: ZoneCategory | null;
  gfaM2: number | null;
  subdivision: SubdivisionPotential;
  dualOccupancy: DualOccupancyTest;
}): DwellingYield {
  const { areaM2, dominant, category, gfaM2, subdivision, dualOccupancy } = input;
  if (dominant === null || category === null) return { dwellings: null, basis: "no_zone" };
  if (category === "other") return { dwellings: null, basis: "not_residential" };
  if (category === "apartment") {
    if (gfaM2 === null) return { dwellings: null, basis: "no_fsr" };
    return { dwellings: Math.floor((gfaM2 * APARTMENT_EFFICIENCY) / AVERAGE_UNIT_M2 + 1e-9), basis: "apartments" };
  }
  if (areaM2 < MIN_BUILDABLE_AREA_M2) return { dwellings: 0, basis: "too_small" };
  // Low rise: the best of one house per subdivided lot, a dual occupancy, or a single house.
  const lots = subdivision.lots ?? 0;
  if (subdivision.possible && lots > 2) return { dwellings: lots, basis: "subdivision" };
  if (dualOccupancy.eligible) return { dwellings: 2, basis: "dual_occupancy" };
  if (subdivision.possible) return { dwellings: lots, basis: "subdivision" };
  return { dwellings: 1, basis: "single_dwelling" };
}
