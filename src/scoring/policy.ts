// Which state policy sets the lot's controls: a TOD area, a low and mid rise housing area, or the LEP alone.
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
import { isSchedule11Station, isSchedule12Station, SCHEDULE_11, SCHEDULE_12 } from "./rules/lmr-places.ts";
import { isTodStation } from "./tod-stations.ts";
import type {
  NearestStop,
  PlaceReach,
  PolicyApplied,
  PolicyAreaShown,
  PolicyDecision,
  PolicyVia,
  Reach,
} from "./types.ts";

export function isStation(stop: NearestStop): boolean {
  return STATION_MODES.includes(stop.mode.trim().toLowerCase());
}

export interface PolicyInput {
  zone: string | null;
  /** The nearest station of any line by straight line: the TOD area is mapped around it (s 151, s 152's note). */
  station: NearestStop | null;
  /** Walked at build time (a world lot); absent: not measured, so the nearest station counts by straight line. */
  reach?: Reach | null;
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

type ExclusionInput = Pick<PolicyInput, "heritageItem" | "bushfire" | "flood" | "lga"> & {
  station?: NearestStop | null;
};

/** Every exclusion of Housing SEPP s 164(1) the packs can see, whatever the distance: an excluded council, a heritage
 * item, bushfire-prone land, flood-affected land (as a screen), the 800 m of a Schedule 12 station. */
export function chapter6Exclusions(p: ExclusionInput): string[] {
  const out: string[] = [];
  const council = p.lga ? LMR_EXCLUSIONS.councils.find((c) => c.toLowerCase() === p.lga?.trim().toLowerCase()) : null;
  if (council) out.push(`the ${council} council area is outside Chapter 6`);
  if (p.heritageItem) out.push("a heritage item is on the lot");
  if (p.bushfire > 0) out.push(`${formatPercent(p.bushfire)} of the lot is bushfire-prone`);
  if (p.flood >= LMR_FLOOD_EXCLUSION_SHARE)
    out.push(`${formatPercent(p.flood)} of the lot is flood-affected (${FLOOD_EXCLUSION_TEXT} or more)`);
  const s = p.station;
  if (s && s.distanceM <= SCHEDULE_12.radiusM && isSchedule12Station(s.name))
    out.push(`${formatDistance(s.distanceM)} from ${s.name}, a Schedule 12 station (${SCHEDULE_12.clause})`);
  return out;
}

/** The first exclusion of s 164(1) the packs show, or null (what s 166's dual occupancies in R2 are held to). */
export function chapter6Exclusion(p: ExclusionInput): string | null {
  return chapter6Exclusions(p)[0] ?? null;
}

/** The distance the policy reads: walking where measured, else the straight line (which no walk undercuts). */
const policyDistance = (r: PlaceReach): number => r.walkingM ?? r.straightM;

const viaOf = (kind: PolicyVia["kind"], r: PlaceReach): PolicyVia => ({
  kind,
  name: r.name,
  walkingM: r.walkingM,
  straightM: r.straightM,
  basis: r.walkingM === null ? "straight_line" : "walking",
});

/** What the lot is measured to: walked where its pack measured it, else the nearest station if Schedule 11 lists it
 * (by straight line). */
export function reachOf(p: Pick<PolicyInput, "station" | "reach">): Reach {
  const s = p.station;
  const listed = s !== null && isSchedule11Station(s.name);
  const straight = listed ? { name: s.name, walkingM: null, straightM: s.distanceM } : null;
  // No walk found to a listed station (no streets known, or none joins it): the straight line, said to be one.
  return { station: p.reach?.station ?? straight, centre: p.reach?.centre ?? null };
}

/** The policy area the lot falls in: TOD by the mapped 400 m, else low and mid rise by walking distance (s 163). */
export function policyFor(p: PolicyInput): PolicyDecision {
  const zone = p.zone ?? "";
  const s = p.station;
  const reach = reachOf(p);
  if (s !== null && s.distanceM <= TOD_RADIUS_M && TOD_ZONES.includes(zone) && isTodStation(s.name)) {
    const walked = reach.station?.name === s.name ? reach.station.walkingM : null;
    const via: PolicyVia = {
      kind: "station",
      name: s.name,
      walkingM: walked,
      straightM: s.distanceM,
      basis: "straight_line",
    };
    const tod = { area: "tod", distanceM: s.distanceM, from: "station", name: s.name, excludedBy: null } as const;
    return { ...tod, via, exclusions: [], lmrZone: LMR_ZONES.includes(zone) };
  }
  const st = reach.station;
  const ce = reach.centre;
  const useCentre = ce !== null && (st === null || policyDistance(ce) < policyDistance(st));
  const via = useCentre ? viaOf("centre", ce) : st !== null ? viaOf("station", st) : null;
  const distanceM = via === null ? null : (via.walkingM ?? via.straightM);
  const lmrZone = LMR_ZONES.includes(zone);
  const base = { distanceM, from: via?.kind ?? null, name: via?.name ?? null, via, lmrZone };
  if (distanceM === null || distanceM > LMR_OUTER_M || !lmrZone) {
    return { area: "none", ...base, excludedBy: null, exclusions: [] };
  }
  const exclusions = chapter6Exclusions(p);
  if (exclusions.length > 0) return { area: "none", ...base, excludedBy: exclusions[0] ?? null, exclusions };
  return { area: distanceM <= LMR_INNER_M ? "lmr_inner" : "lmr_outer", ...base, excludedBy: null, exclusions: [] };
}

/** The v2 `policy` a result keeps. */
export const policyApplied = (p: PolicyDecision): PolicyApplied => ({
  area: p.area,
  distanceM: p.distanceM,
  from: p.from,
  name: p.name,
  excludedBy: p.excludedBy,
});

/** docs/design.md section 13's `policy_area`. */
export function policyAreaShown(p: PolicyDecision): PolicyAreaShown {
  return { kind: p.area === "none" ? null : p.area, via: p.via, excludedBy: p.exclusions.slice() };
}

// The exclusions of s 164(1) the packs cannot show: a planner checks these before relying on the area.
/** How a reason's list of the exclusions not checked begins, after "; " (a report lists them once instead). */
export const NOT_CHECKED_PREFIX = "not checked: ";
const NOT_CHECKED = `${NOT_CHECKED_PREFIX}${LMR_EXCLUSIONS.notChecked.what} (${LMR_EXCLUSIONS.clause}${LMR_EXCLUSIONS.notChecked.paragraphs}).`;

/** "350 m walk from Petersham Station (290 m in a straight line)", or a straight line said to be one. */
export function describeVia(v: PolicyVia): string {
  const place = v.name;
  if (v.walkingM === null)
    return `${formatDistance(v.straightM)} in a straight line from ${place}, walking not measured (no streets known)`;
  if (v.basis === "straight_line")
    return `${formatDistance(v.straightM)} in a straight line from ${place} (${formatDistance(v.walkingM)} walking)`;
  return `${formatDistance(v.walkingM)} walking from ${place} (${formatDistance(v.straightM)} in a straight line)`;
}

// The TOD area is mapped around the station by straight line; the walk is shown beside it where it was measured.
const todDistance = (v: PolicyVia): string =>
  `${formatDistance(v.straightM)} in a straight line from ${v.name}${v.walkingM === null ? "" : ` (${formatDistance(v.walkingM)} walking)`}`;

/** The other place walked to, beside the one that set the area: both distances are shown. */
function otherReach(p: PolicyDecision, reach: Reach | null): string {
  if (reach === null) return "";
  const other = p.via?.kind === "centre" ? reach.station : reach.centre;
  if (other === null || other.walkingM === null) return "";
  const what = p.via?.kind === "centre" ? "nearest Schedule 11 station" : "nearest town centre";
  return ` The ${what}: ${other.name}, ${formatDistance(other.walkingM)} walking (${formatDistance(other.straightM)} in a straight line).`;
}

/** One sentence (two where a second place was walked to): the policy that applied and why, or why none did. */
export function policyReason(p: PolicyDecision, reach: Reach | null = null): string | null {
  const via = p.via;
  const tail = otherReach(p, reach);
  switch (p.area) {
    case "tod":
      return `Transport oriented development area: ${via ? todDistance(via) : ""} ≤ ${TOD_RADIUS_TEXT}, as the Department maps the area (${TOD_AREA.clause}).${tail}`;
    case "lmr_inner":
      return `Low and mid rise housing inner area: ${via ? describeVia(via) : ""} ≤ ${LMR_INNER_TEXT} (${LMR_AREA.clause}); ${NOT_CHECKED}${tail}`;
    case "lmr_outer":
      return `Low and mid rise housing outer area: ${via ? describeVia(via) : ""}, within ${LMR_OUTER_TEXT} (${LMR_AREA.clause}); ${NOT_CHECKED}${tail}`;
    case "none":
      if (!p.lmrZone) return null;
      if (p.exclusions.length > 0 && via !== null)
        return `Within ${LMR_OUTER_TEXT} of a Schedule 11 station or town centre, ${describeVia(via)}, but outside the low and mid rise housing policy: ${p.exclusions.join("; ")} (${LMR_EXCLUSIONS.clause}).${tail}`;
      if (via !== null && p.distanceM !== null && p.distanceM > LMR_OUTER_M)
        return `Not in a low and mid rise housing area: ${describeVia(via)}, the nearest ${via.kind === "centre" ? "town centre" : "Schedule 11 station"}, beyond ${LMR_OUTER_TEXT} (${LMR_AREA.clause}).${tail}`;
      if (via === null)
        return `Not in a low and mid rise housing area: no station listed in Schedule 11 and no designated town centre was found near the lot (${SCHEDULE_11.clause}).`;
      return null;
  }
}
