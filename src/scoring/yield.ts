// What the land use, the controls and the state policies permit on the lot, tested form by form, and the uplift
// beyond the dwellings assumed to stand today. No housing yield where the land use permits no housing.
import {
  DUAL_OCC_MIN_AREA_M2,
  DUAL_OCC_MIN_FRONTAGE_M,
  EXISTING_DWELLINGS,
  MIN_BUILDABLE_AREA_M2,
} from "./constants.ts";
import { residentialStoreys } from "./envelope.ts";
import { apartmentOptions } from "./apartment-options.ts";
import { lowRiseFloor } from "./floor-space.ts";
import { floorQ } from "./format.ts";
import type { LepPlace } from "./lep-site.ts";
import { lowRiseOptions } from "./low-rise-options.ts";
import { shownLot } from "./option-text.ts";
import type { LandUse } from "./permissibility.ts";
import type {
  DualOccupancyTest,
  PolicyArea,
  SubdivisionPotential,
  YieldBasis,
  YieldOption,
  ZoneCategory,
} from "./types.ts";

export function subdivisionPotential(areaM2: number, minLotSizeM2: number | null): SubdivisionPotential {
  if (minLotSizeM2 === null || minLotSizeM2 <= 0) return { lots: null, possible: false };
  const lots = floorQ(areaM2 / minLotSizeM2);
  return { lots, possible: lots >= 2 };
}

/** The dual occupancy site test; the zone allows one where its land use (with the state policies) permits it. */
export function dualOccupancyTest(landUse: LandUse, areaM2: number, frontageM: number): DualOccupancyTest {
  const zoneAllows = landUse.forms.dual_occupancy.permitted;
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

export interface YieldInput {
  areaM2: number;
  frontageM: number;
  zone: string | null;
  category: ZoneCategory | null;
  lepFsr: number | null;
  lepHeightM: number | null;
  subdivision: SubdivisionPotential;
  minLotSizeM2: number | null;
  policy: PolicyArea;
  landUse: LandUse;
  /** The dwellings standing today, recorded or assumed: the uplift is counted beyond them. */
  existingDwellings: number;
  /** The lot's council, for its LEP's dual occupancy and multi dwelling lot sizes; absent: older facts. */
  lep?: LepPlace;
}

export interface YieldEstimate {
  basis: YieldBasis;
  dwellings: number | null; // permitted in all; null when not estimated or no housing is permitted
  existingDwellings: number;
  upliftDwellings: number | null;
  upliftUnits: number; // the dwellings beyond those assumed to stand
  /** The floor space of the form the yield uses (whole m²); null when none is counted or nothing bounds it. */
  gfaM2: number | null;
  options: YieldOption[];
}

// Ties go to the simpler form, listed first.
function best(options: readonly YieldOption[]): YieldOption | null {
  let top: YieldOption | null = null;
  for (const o of options) if (o.permitted && (top === null || o.dwellings > top.dwellings)) top = o;
  return top;
}

function notEstimated(basis: YieldBasis, existing: number, options: YieldOption[] = []): YieldEstimate {
  return {
    basis,
    dwellings: null,
    existingDwellings: existing,
    upliftDwellings: null,
    upliftUnits: 0,
    gfaM2: null,
    options,
  };
}

// No form beyond a house: the floor space a house may have under the LEP (its FSR within its height), and `dwellings`
// the house (or none) the lot holds, an uplift only where less stands.
function noUplift(i: YieldInput, basis: YieldBasis, dwellings: number, options: YieldOption[]): YieldEstimate {
  const floor = lowRiseFloor(
    shownLot(i.areaM2, i.frontageM),
    i.lepFsr,
    "LEP FSR",
    i.lepHeightM,
    residentialStoreys(i.lepHeightM),
  );
  const existing = i.existingDwellings;
  const uplift = Math.max(0, dwellings - existing);
  return {
    basis,
    dwellings,
    existingDwellings: existing,
    upliftDwellings: uplift,
    upliftUnits: uplift,
    gfaM2: floor.gfaM2,
    options,
  };
}

export function estimateYield(i: YieldInput): YieldEstimate {
  if (i.zone === null || i.category === null) return notEstimated("no_zone", i.existingDwellings);
  const residential = i.category === "apartment" || i.category === "low_rise";
  const existing = i.existingDwellings;
  // Where the land use permits no housing, or the zone is not one the model builds housing in, nothing is counted.
  if (!i.landUse.housingPermitted || i.category === "other") return notEstimated("not_residential", existing);
  if (residential && i.areaM2 < MIN_BUILDABLE_AREA_M2) {
    return { ...notEstimated("too_small", existing), dwellings: existing, upliftDwellings: 0 };
  }
  const s = shownLot(i.areaM2, i.frontageM);
  const common = { s, zone: i.zone, lepFsr: i.lepFsr, lepHeightM: i.lepHeightM, policy: i.policy, landUse: i.landUse };
  const options = [
    ...(residential
      ? lowRiseOptions({ ...common, subdivision: i.subdivision, minLotSizeM2: i.minLotSizeM2, lep: i.lep })
      : []),
    ...apartmentOptions(common),
  ];
  const top = best(options);
  // A residential lot holds a house: a form counts as a yield when it gives more.
  if (top === null || top.dwellings <= (residential ? EXISTING_DWELLINGS : 0)) {
    // No FSR mapped where flats or shop top housing would be read from it: the yield cannot be read from the controls.
    if ((i.category === "apartment" || i.category === "employment") && i.lepFsr === null)
      return notEstimated("no_fsr", existing, options);
    // Centre land whose controls leave no room for housing above the shops: shop top housing, none of it.
    if (i.category === "employment") {
      const shops = options.find((o) => o.basis === "shop_top_housing");
      return { ...noUplift(i, "shop_top_housing", 0, options), gfaM2: shops?.gfaM2 ?? null };
    }
    // One house, where the land use permits it or one stands (what stands may stay): on a vacant lot, an uplift of one.
    const house = i.landUse.forms.dwelling_house.permitted || existing > 0 ? EXISTING_DWELLINGS : 0;
    return noUplift(i, "single_dwelling", house, options);
  }
  // More stands than the controls permit (a strata building): no uplift, never a negative one.
  const uplift = Math.max(0, top.dwellings - existing);
  return {
    basis: top.basis,
    dwellings: top.dwellings,
    existingDwellings: existing,
    upliftDwellings: uplift,
    upliftUnits: uplift,
    gfaM2: top.gfaM2,
    options,
  };
}
