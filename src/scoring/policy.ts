// Which state policy sets the lot's controls: a TOD precinct, a low and mid rise housing area, or the LEP alone.
import {
  LMR_FLOOD_EXCLUSION_SHARE,
  LMR_INNER_M,
  LMR_OUTER_M,
  LMR_ZONES,
  STATION_MODES,
  TOD_RADIUS_M,
  TOD_ZONES,
} from "./constants.ts";
import { formatDistance, formatPercent } from "./format.ts";
import { LMR_AREA, LMR_EXCLUSIONS, TOD_AREA } from "./rules/housing-sepp.ts";
import { isTodStation } from "./tod-stations.ts";
import type { NearestStop, PolicyApplied } from "./types.ts";

export function isStation(stop: NearestStop): boolean {
  return STATION_MODES.includes(stop.mode.trim().toLowerCase());
}

export interface PolicyInput {
  zone: string | null;
  station: NearestStop | null;
  centreDistanceM: number | null;
  flood: number;
  bushfire: number;
  heritageItem: boolean;
  /** The lot's council, where the facts carry it: s 164(1)(e) leaves four councils wholly outside Chapter 6. */
  lga?: string | null;
}

// The policies' fixed figures as their sentences show them, formatted once.
const FLOOD_EXCLUSION_TEXT = formatPercent(LMR_FLOOD_EXCLUSION_SHARE);
const TOD_RADIUS_TEXT = formatDistance(TOD_RADIUS_M);
const LMR_INNER_TEXT = formatDistance(LMR_INNER_M);
const LMR_OUTER_TEXT = formatDistance(LMR_OUTER_M);

/** Exclusions of Housing SEPP s 164(1) the packs can see, whatever the distance: a heritage item, bushfire-prone land,
 * flood-affected land (Chapter 6 does not apply there, s 166 included). */
export function chapter6Exclusion(p: Pick<PolicyInput, "heritageItem" | "bushfire" | "flood" | "lga">): string | null {
  const council = p.lga ? LMR_EXCLUSIONS.councils.find((c) => c.toLowerCase() === p.lga?.trim().toLowerCase()) : null;
  if (council) return `the ${council} council area is outside Chapter 6`;
  if (p.heritageItem) return "a heritage item is on the lot";
  if (p.bushfire > 0) return `${formatPercent(p.bushfire)} of the lot is bushfire-prone`;
  if (p.flood >= LMR_FLOOD_EXCLUSION_SHARE)
    return `${formatPercent(p.flood)} of the lot is flood-affected (${FLOOD_EXCLUSION_TEXT} or more)`;
  return null;
}

/** The policy area the lot falls in, by straight-line distance to the nearest station or centre. */
export function policyFor(p: PolicyInput): PolicyApplied {
  const zone = p.zone ?? "";
  const s = p.station;
  if (s !== null && s.distanceM <= TOD_RADIUS_M && TOD_ZONES.includes(zone) && isTodStation(s.name)) {
    return { area: "tod", distanceM: s.distanceM, from: "station", name: s.name, excludedBy: null };
  }
  const c = p.centreDistanceM;
  const useCentre = c !== null && (s === null || c < s.distanceM);
  const distanceM = useCentre ? c : (s?.distanceM ?? null);
  const from = useCentre ? "centre" : s === null ? null : "station";
  const name = useCentre ? null : (s?.name ?? null);
  if (distanceM === null || distanceM > LMR_OUTER_M || !LMR_ZONES.includes(zone)) {
    return { area: "none", distanceM, from, name, excludedBy: null };
  }
  const excludedBy = chapter6Exclusion(p);
  if (excludedBy !== null) return { area: "none", distanceM, from, name, excludedBy };
  return { area: distanceM <= LMR_INNER_M ? "lmr_inner" : "lmr_outer", distanceM, from, name, excludedBy: null };
}

// The exclusions of s 164(1) the packs cannot show: a planner checks these before relying on the area.
/** How a reason's list of the exclusions not checked begins, after "; " (a report lists them once instead). */
export const NOT_CHECKED_PREFIX = "not checked: ";
const NOT_CHECKED = `${NOT_CHECKED_PREFIX}${LMR_EXCLUSIONS.notChecked.what} (${LMR_EXCLUSIONS.clause}${LMR_EXCLUSIONS.notChecked.paragraphs}).`;

const where = (p: PolicyApplied): string =>
  p.from === "centre"
    ? `${formatDistance(p.distanceM ?? 0)} from centre-zoned land (E1, E2 or MU1)`
    : `${formatDistance(p.distanceM ?? 0)} from ${p.name ?? "a station"}`;

/** One sentence: the policy that applied and why, or why none did. */
export function policyReason(p: PolicyApplied): string | null {
  switch (p.area) {
    case "tod":
      return `Transport oriented development precinct: ${where(p)} ≤ ${TOD_RADIUS_TEXT} (${TOD_AREA.clause}).`;
    case "lmr_inner":
      return `Low and mid rise housing inner area: ${where(p)} ≤ ${LMR_INNER_TEXT} (${LMR_AREA.clause}); ${NOT_CHECKED}`;
    case "lmr_outer":
      return `Low and mid rise housing outer area: ${where(p)}, within ${LMR_OUTER_TEXT} (${LMR_AREA.clause}); ${NOT_CHECKED}`;
    case "none":
      if (p.excludedBy !== null)
        return `Within ${LMR_OUTER_TEXT} of a station or centre (${where(p)}) but outside the low and mid rise housing policy: ${p.excludedBy} (${LMR_EXCLUSIONS.clause}).`;
      return null;
  }
}
