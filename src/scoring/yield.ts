// What the controls and the state policies permit on the lot, tested option by option, and the uplift beyond today.
import {
  APARTMENT_EFFICIENCY,
  AVERAGE_UNIT_M2,
  DUAL_OCC_MIN_AREA_M2,
  DUAL_OCC_MIN_FRONTAGE_M,
  DUAL_OCCUPANCY_ZONES,
  EXISTING_DWELLINGS,
  EXISTING_FSR_NON_RESIDENTIAL,
  LOW_RISE_RFB_FSR,
  LOW_RISE_RFB_MIN_AREA_M2,
  LOW_RISE_RFB_MIN_FRONTAGE_M,
  MID_RISE_MIN_FRONTAGE_M,
  MIN_BUILDABLE_AREA_M2,
  MULTI_DWELLING_FSR,
  MULTI_DWELLING_MIN_AREA_M2,
  MULTI_DWELLING_MIN_FRONTAGE_M,
  TERRACE_LOT_M2,
  TERRACE_LOT_WIDTH_M,
  TERRACE_MIN_AREA_M2,
  TERRACE_MIN_FRONTAGE_M,
  TERRACE_ZONES,
  TOD_FSR,
  TOD_MIN_FRONTAGE_M,
  TOD_ZONES,
  TOWNHOUSE_M2,
} from "./constants.ts";
import { formatArea, formatMetres, formatNumber, roundTo } from "./format.ts";
import {
  DUAL_OCCUPANCY,
  figure,
  LOW_RISE_FLATS,
  MID_RISE_INNER,
  MID_RISE_OUTER,
  MULTI_DWELLING,
  TERRACES,
  TOD_APARTMENTS,
} from "./rules/housing-sepp.ts";
import type {
  DualOccupancyTest,
  PolicyArea,
  SubdivisionPotential,
  YieldBasis,
  YieldOption,
  ZoneCategory,
} from "./types.ts";

// The epsilon keeps exact quotients (900 / 450, 1,700 / 85) whole despite binary division.
const floorQ = (x: number): number => Math.floor(x + 1e-9);

export function gfaPotential(areaM2: number, fsr: number | null): number | null {
  return fsr === null ? null : roundTo(areaM2 * fsr);
}

export function subdivisionPotential(areaM2: number, minLotSizeM2: number | null): SubdivisionPotential {
  if (minLotSizeM2 === null || minLotSizeM2 <= 0) return { lots: null, possible: false };
  const lots = floorQ(areaM2 / minLotSizeM2);
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

/** Apartments in a given floor space: 75 % saleable, 85 m² a unit. */
export function apartmentsIn(gfaM2: number): number {
  return floorQ((gfaM2 * APARTMENT_EFFICIENCY) / AVERAGE_UNIT_M2);
}

const fsrText = (v: number): string => `${formatNumber(v, 2)}:1`;
// A lot's area and frontage as shown, formatted once per lot (every option's rule repeats them).
type Shown = { a: number; aText: string; w: number; wText: string };
// Two joins, not a template's four: the rules are most of a score's text.
const cmp = (vText: string, v: number, min: number, minText: string): string =>
  vText + (v >= min ? " ≥ " : " < ") + minText;
const siteRule = (s: Shown, minA: number, minAText: string, minW: number, minWText: string): string =>
  `lot ${cmp(s.aText, s.a, minA, minAText)}, frontage ${cmp(s.wText, s.w, minW, minWText)}`;

// The model's fixed figures as its texts show them, formatted once.
const DUAL_OCC_AREA_TEXT = formatArea(DUAL_OCC_MIN_AREA_M2);
const DUAL_OCC_FRONTAGE_TEXT = formatMetres(DUAL_OCC_MIN_FRONTAGE_M);
const MULTI_DWELLING_AREA_TEXT = formatArea(MULTI_DWELLING_MIN_AREA_M2);
const MULTI_DWELLING_FRONTAGE_TEXT = formatMetres(MULTI_DWELLING_MIN_FRONTAGE_M);
const TOWNHOUSE_TEXT = formatArea(TOWNHOUSE_M2);
const TERRACE_AREA_TEXT = formatArea(TERRACE_MIN_AREA_M2);
const TERRACE_FRONTAGE_TEXT = formatMetres(TERRACE_MIN_FRONTAGE_M);
const TERRACE_EACH_TEXT = `(${formatArea(TERRACE_LOT_M2)} and ${formatMetres(TERRACE_LOT_WIDTH_M)} each)`;
const LOW_RISE_AREA_TEXT = formatArea(LOW_RISE_RFB_MIN_AREA_M2);
const LOW_RISE_FRONTAGE_TEXT = formatMetres(LOW_RISE_RFB_MIN_FRONTAGE_M);
const MID_RISE_FRONTAGE_TEXT = formatMetres(MID_RISE_MIN_FRONTAGE_M);
const TOD_FRONTAGE_TEXT = formatMetres(TOD_MIN_FRONTAGE_M);
const UNITS_TEXT = `× ${formatNumber(APARTMENT_EFFICIENCY * 100)}% ÷ ${formatArea(AVERAGE_UNIT_M2)}`;
const STANDING_TEXT = `(${fsrText(EXISTING_FSR_NON_RESIDENTIAL)})`;

// The LEP's own clauses (Standard Instrument numbering): minimum subdivision lot size and floor space ratio.
const LEP_LOT_SIZE = "LEP cl 4.1";
const LEP_FSR = "LEP cl 4.4";
const DUAL_OCCUPANCY_SCREEN = `${DUAL_OCCUPANCY.clause} figures as a screen; outside a low and mid rise housing area the LEP governs`;

const SUBDIVISION_ZONES: readonly string[] = ["R1", "R2", "R3", "R5", "RU5"];
const SI_MULTI_DWELLING_ZONES: readonly string[] = ["R1", "R3"];
const MULTI_DWELLING_ZONES: readonly string[] = MULTI_DWELLING.zones;
const LOW_RISE_RFB_ZONES: readonly string[] = LOW_RISE_FLATS.zones;
const MID_RISE_ZONES: readonly string[] = MID_RISE_INNER.zones;
const LEP_APARTMENT_ZONES: readonly string[] = ["R4", "MU1"];
// The higher of the LEP's FSR and the policy's: the SEPP's standard applies unless the LEP is more generous.
const higher = (lep: number | null, policy: number): number => (lep !== null && lep > policy ? lep : policy);

export interface YieldInput {
  areaM2: number;
  frontageM: number;
  zone: string | null;
  category: ZoneCategory | null;
  lepFsr: number | null;
  subdivision: SubdivisionPotential;
  minLotSizeM2: number | null;
  policy: PolicyArea;
}

export interface YieldEstimate {
  basis: YieldBasis;
  dwellings: number | null; // permitted in all; null when not estimated or not residential
  existingDwellings: number;
  upliftDwellings: number | null;
  upliftFloorSpaceM2: number | null;
  upliftUnits: number; // dwellings, or floor space in 85 m² units at 75 % (employment zones)
  options: YieldOption[];
}

// `site`: the site test the rule opens with ("" when none).
function apartmentOption(
  basis: YieldBasis,
  s: Shown,
  fsr: number,
  label: string,
  permitted: boolean,
  site: string,
  clause: string,
): YieldOption {
  const gfa = roundTo(s.a * fsr);
  const n = apartmentsIn(gfa);
  const f = fsrText(fsr);
  return {
    basis,
    permitted,
    dwellings: n,
    rule: `${site}${label} ${f}: ${s.aText} × ${f} = ${formatArea(gfa)}, ${UNITS_TEXT} = ${formatNumber(n)} apartment${n === 1 ? "" : "s"}`,
    clause,
  };
}

// Every residential option the zone and the policy area allow, each with its test and figures.
export function residentialOptions(i: YieldInput): YieldOption[] {
  const { areaM2: a, frontageM: w, zone: z, lepFsr, policy } = i;
  const zone = z ?? "";
  const lmr = policy === "lmr_inner" || policy === "lmr_outer";
  const out: YieldOption[] = [];
  const min = i.minLotSizeM2;
  const s: Shown = { a, aText: formatArea(a), w, wText: formatMetres(w) };
  if (SUBDIVISION_ZONES.includes(zone) && min !== null && i.subdivision.lots !== null) {
    const lots = i.subdivision.lots;
    out.push({
      basis: "subdivision",
      permitted: i.subdivision.possible,
      dwellings: lots,
      rule: `${s.aText} ÷ ${formatArea(min)} minimum lot size = ${formatNumber(lots)} lot${lots === 1 ? "" : "s"} (2 needed)`,
      clause: LEP_LOT_SIZE,
    });
  }
  if (DUAL_OCCUPANCY_ZONES.includes(zone)) {
    const ok = a >= DUAL_OCC_MIN_AREA_M2 && w >= DUAL_OCC_MIN_FRONTAGE_M;
    out.push({
      basis: "dual_occupancy",
      permitted: ok,
      dwellings: 2,
      rule: siteRule(s, DUAL_OCC_MIN_AREA_M2, DUAL_OCC_AREA_TEXT, DUAL_OCC_MIN_FRONTAGE_M, DUAL_OCC_FRONTAGE_TEXT),
      // s 168 applies in a low and mid rise housing area only: elsewhere its figures are a screen, and the reason says so.
      clause: lmr ? DUAL_OCCUPANCY.clause : DUAL_OCCUPANCY_SCREEN,
    });
  }
  // Townhouses: R1 and R3 by the Standard Instrument (the LEP's FSR); R1-R4 in an LMR area at 0.7:1 or more.
  const mdFsr = lmr ? higher(lepFsr, MULTI_DWELLING_FSR) : SI_MULTI_DWELLING_ZONES.includes(zone) ? lepFsr : null;
  if (mdFsr !== null && MULTI_DWELLING_ZONES.includes(zone)) {
    const ok = a >= MULTI_DWELLING_MIN_AREA_M2 && w >= MULTI_DWELLING_MIN_FRONTAGE_M;
    const gfa = roundTo(a * mdFsr);
    const n = floorQ(gfa / TOWNHOUSE_M2);
    const rule = siteRule(
      s,
      MULTI_DWELLING_MIN_AREA_M2,
      MULTI_DWELLING_AREA_TEXT,
      MULTI_DWELLING_MIN_FRONTAGE_M,
      MULTI_DWELLING_FRONTAGE_TEXT,
    );
    out.push({
      basis: "multi_dwelling",
      permitted: ok && n > 0,
      dwellings: n,
      rule: `${rule}; ${s.aText} × ${fsrText(mdFsr)} = ${formatArea(gfa)} ÷ ${TOWNHOUSE_TEXT} = ${formatNumber(n)} townhouse${n === 1 ? "" : "s"}`,
      clause: lmr ? MULTI_DWELLING.clause : LEP_FSR,
    });
  }
  if (lmr && TERRACE_ZONES.includes(zone)) {
    const ok = a >= TERRACE_MIN_AREA_M2 && w >= TERRACE_MIN_FRONTAGE_M;
    const byArea = floorQ(a / TERRACE_LOT_M2);
    const byWidth = floorQ(w / TERRACE_LOT_WIDTH_M);
    const n = Math.min(byArea, byWidth);
    const rule = siteRule(s, TERRACE_MIN_AREA_M2, TERRACE_AREA_TEXT, TERRACE_MIN_FRONTAGE_M, TERRACE_FRONTAGE_TEXT);
    out.push({
      basis: "terraces",
      permitted: ok,
      dwellings: n,
      rule: `${rule}; ${formatNumber(n)} terrace${n === 1 ? "" : "s"} ${TERRACE_EACH_TEXT}`,
      clause: TERRACES.clause,
    });
  }
  if (lmr && LOW_RISE_RFB_ZONES.includes(zone)) {
    const ok = a >= LOW_RISE_RFB_MIN_AREA_M2 && w >= LOW_RISE_RFB_MIN_FRONTAGE_M;
    const site = siteRule(
      s,
      LOW_RISE_RFB_MIN_AREA_M2,
      LOW_RISE_AREA_TEXT,
      LOW_RISE_RFB_MIN_FRONTAGE_M,
      LOW_RISE_FRONTAGE_TEXT,
    );
    out.push(
      apartmentOption(
        "low_rise_apartments",
        s,
        higher(lepFsr, LOW_RISE_RFB_FSR),
        "FSR",
        ok,
        `${site}; `,
        LOW_RISE_FLATS.clause,
      ),
    );
  }
  if (lmr && MID_RISE_ZONES.includes(zone)) {
    const standard = policy === "lmr_inner" ? MID_RISE_INNER : MID_RISE_OUTER;
    const fsr = higher(lepFsr, figure(standard, "maxFsr"));
    const site = `frontage ${cmp(s.wText, w, MID_RISE_MIN_FRONTAGE_M, MID_RISE_FRONTAGE_TEXT)}; `;
    out.push(
      apartmentOption("mid_rise_apartments", s, fsr, "FSR", w >= MID_RISE_MIN_FRONTAGE_M, site, standard.clause),
    );
  }
  if (policy === "tod" && TOD_ZONES.includes(zone) && zone.startsWith("R")) {
    const site = `frontage ${cmp(s.wText, w, TOD_MIN_FRONTAGE_M, TOD_FRONTAGE_TEXT)}; `;
    const fsr = higher(lepFsr, TOD_FSR);
    out.push(apartmentOption("tod_apartments", s, fsr, "FSR", w >= TOD_MIN_FRONTAGE_M, site, TOD_APARTMENTS.clause));
  }
  if (LEP_APARTMENT_ZONES.includes(zone) && lepFsr !== null)
    out.push(apartmentOption("apartments", s, lepFsr, "LEP FSR", true, "", LEP_FSR));
  return out;
}

// Ties go to the simpler form, listed first above.
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
    upliftFloorSpaceM2: null,
    upliftUnits: 0,
    options,
  };
}

function floorSpaceEstimate(i: YieldInput): YieldEstimate {
  const tod = i.policy === "tod" && TOD_ZONES.includes(i.zone ?? "") && i.frontageM >= TOD_MIN_FRONTAGE_M;
  const fsr = tod ? higher(i.lepFsr, TOD_FSR) : i.lepFsr;
  if (fsr === null) return notEstimated("no_fsr", 0);
  const gfa = roundTo(i.areaM2 * fsr);
  const existing = roundTo(i.areaM2 * EXISTING_FSR_NON_RESIDENTIAL);
  const uplift = Math.max(0, gfa - existing);
  const units = apartmentsIn(uplift);
  const byTod = tod && fsr === TOD_FSR;
  const label = byTod ? "TOD FSR" : "LEP FSR";
  const f = fsrText(fsr);
  const option: YieldOption = {
    basis: "floor_space",
    permitted: uplift > 0,
    dwellings: 0,
    rule: `${label} ${f}: ${formatArea(i.areaM2)} × ${f} = ${formatArea(gfa)}, less ${formatArea(existing)} standing ${STANDING_TEXT} = ${formatArea(uplift)} more`,
    clause: byTod ? TOD_APARTMENTS.clause : LEP_FSR,
  };
  return {
    basis: "floor_space",
    dwellings: null,
    existingDwellings: 0,
    upliftDwellings: null,
    upliftFloorSpaceM2: uplift,
    upliftUnits: units,
    options: [option],
  };
}

export function estimateYield(i: YieldInput): YieldEstimate {
  if (i.zone === null || i.category === null) return notEstimated("no_zone", 0);
  if (i.category === "other") return notEstimated("not_residential", 0);
  if (i.category === "employment") return floorSpaceEstimate(i);
  const existing = EXISTING_DWELLINGS;
  if (i.areaM2 < MIN_BUILDABLE_AREA_M2) {
    return { ...notEstimated("too_small", existing), dwellings: existing, upliftDwellings: 0 };
  }
  const options = residentialOptions(i);
  const top = best(options);
  if (top === null || top.dwellings <= existing) {
    // An apartment zone with no FSR mapped and nothing else permitted: the yield cannot be read from the controls.
    if (i.category === "apartment" && i.lepFsr === null) return notEstimated("no_fsr", existing, options);
    return {
      basis: "single_dwelling",
      dwellings: existing,
      existingDwellings: existing,
      upliftDwellings: 0,
      upliftFloorSpaceM2: null,
      upliftUnits: 0,
      options,
    };
  }
  const uplift = top.dwellings - existing;
  return {
    basis: top.basis,
    dwellings: top.dwellings,
    existingDwellings: existing,
    upliftDwellings: uplift,
    upliftFloorSpaceM2: null,
    upliftUnits: uplift,
    options,
  };
}
