// The low-rise ways to develop a residential lot: subdivision into house lots, a dual occupancy, townhouses, terraces
// and 2-storey flats, each tested against its rule, counted only where the land use permits it, and held to its height.
import {
  DUAL_OCCUPANCY_ZONES,
  LOW_RISE_RFB_FSR,
  LOW_RISE_RFB_HEIGHT_M,
  LOW_RISE_RFB_MIN_AREA_M2,
  LOW_RISE_RFB_MIN_FRONTAGE_M,
  MULTI_DWELLING_FSR,
  TERRACE_LOT_M2,
  TERRACE_LOT_WIDTH_M,
  TERRACE_MIN_AREA_M2,
  TERRACE_MIN_FRONTAGE_M,
  TERRACE_ZONES,
  TOWNHOUSE_M2,
  TOWNHOUSE_SITE_M2,
} from "./constants.ts";
import { residentialStoreys } from "./envelope.ts";
import { type FloorSpace, lowRiseFloor } from "./floor-space.ts";
import { floorQ, formatArea, formatMetres } from "./format.ts";
import { type LepPlace, siteTest } from "./lep-site.ts";
import { apartmentsIn, notCountedText, plural, type Shown, siteRule, UNITS_TEXT } from "./option-text.ts";
import type { FormPermission, LandUse } from "./permissibility.ts";
import { DUAL_OCCUPANCY, figure, LOW_RISE_FLATS, MULTI_DWELLING, TERRACES } from "./rules/housing-sepp.ts";
import type { PolicyArea, SubdivisionPotential, YieldLimit, YieldOption } from "./types.ts";

export interface LowRiseInput {
  s: Shown;
  zone: string;
  lepFsr: number | null;
  lepHeightM: number | null;
  subdivision: SubdivisionPotential;
  minLotSizeM2: number | null;
  policy: PolicyArea;
  landUse: LandUse;
  /** The lot's council, whose LEP sets the dual occupancy and multi dwelling lot sizes; absent: older facts. */
  lep?: LepPlace;
}

// The model's fixed figures as its texts show them, formatted once.
const TOWNHOUSE_TEXT = formatArea(TOWNHOUSE_M2);
const TOWNHOUSE_SITE_TEXT = formatArea(TOWNHOUSE_SITE_M2);
const TERRACE_AREA_TEXT = formatArea(TERRACE_MIN_AREA_M2);
const TERRACE_FRONTAGE_TEXT = formatMetres(TERRACE_MIN_FRONTAGE_M);
const TERRACE_EACH_TEXT = `(${formatArea(TERRACE_LOT_M2)} and ${formatMetres(TERRACE_LOT_WIDTH_M)} each)`;
const LOW_RISE_AREA_TEXT = formatArea(LOW_RISE_RFB_MIN_AREA_M2);
const LOW_RISE_FRONTAGE_TEXT = formatMetres(LOW_RISE_RFB_MIN_FRONTAGE_M);

// The LEP's own clauses (Standard Instrument numbering): minimum subdivision lot size and floor space ratio.
export const LEP_LOT_SIZE = "LEP cl 4.1";
export const LEP_FSR = "LEP cl 4.4";
const DUAL_OCCUPANCY_SCREEN = `${DUAL_OCCUPANCY.clause} figures as a screen; outside a low and mid rise housing area the LEP governs`;

const SUBDIVISION_ZONES: readonly string[] = ["R1", "R2", "R3", "R5", "RU5"];
const SI_MULTI_DWELLING_ZONES: readonly string[] = ["R1", "R3"];
const MULTI_DWELLING_ZONES: readonly string[] = MULTI_DWELLING.zones;
const LOW_RISE_RFB_ZONES: readonly string[] = LOW_RISE_FLATS.zones;

/** The higher of the LEP's control and the policy's: the SEPP's standard applies unless the LEP is more generous. */
export const higher = (lep: number | null, policy: number): number => (lep !== null && lep > policy ? lep : policy);

// Opens the rule with who decides when the land use does not count the form.
const opening = (p: FormPermission): string => (p.permitted ? "" : notCountedText(p));
// A height that holds no storey builds nothing.
const noStorey = (storeys: number | null): boolean => storeys === 0;

function option(
  basis: YieldOption["basis"],
  permitted: boolean,
  dwellings: number,
  rule: string,
  clause: string,
  floor: FloorSpace | null,
  limitedBy: YieldLimit | null = floor?.limitedBy ?? null,
): YieldOption {
  return {
    basis,
    permitted,
    dwellings,
    rule,
    clause,
    gfaM2: floor?.gfaM2 ?? null,
    storeys: floor?.storeys ?? null,
    limitedBy,
  };
}

function subdivisionOption(i: LowRiseInput): YieldOption | null {
  const { s, minLotSizeM2: min, subdivision } = i;
  if (!SUBDIVISION_ZONES.includes(i.zone) || min === null || subdivision.lots === null) return null;
  const p = i.landUse.forms.dwelling_house;
  const storeys = residentialStoreys(i.lepHeightM);
  const floor = lowRiseFloor(s, i.lepFsr, "LEP FSR", i.lepHeightM, storeys);
  const lots = subdivision.lots;
  const rule = `${opening(p)}${s.aText} ÷ ${formatArea(min)} minimum lot size = ${plural(lots, "lot")} (2 needed)`;
  const ok = subdivision.possible && p.permitted && !noStorey(storeys);
  return option(
    "subdivision",
    ok,
    lots,
    noStorey(storeys) ? `${rule}; ${floor.text}` : rule,
    LEP_LOT_SIZE,
    floor,
    null,
  );
}

function dualOccupancyOption(i: LowRiseInput, lmr: boolean): YieldOption | null {
  if (!DUAL_OCCUPANCY_ZONES.includes(i.zone)) return null;
  const { s } = i;
  const p = i.landUse.forms.dual_occupancy;
  // Inside a low and mid rise housing area s 168(2)'s FSR and height apply (the LEP's when higher); elsewhere the LEP's.
  const fsr = lmr ? higher(i.lepFsr, figure(DUAL_OCCUPANCY, "maxFsr")) : i.lepFsr;
  const height = lmr ? higher(i.lepHeightM, figure(DUAL_OCCUPANCY, "maxHeightM")) : i.lepHeightM;
  const storeys = residentialStoreys(height);
  const floor = lowRiseFloor(s, fsr, lmr ? "FSR" : "LEP FSR", height, storeys);
  const site = siteTest({
    s,
    form: "dual_occupancy",
    zone: i.zone,
    sepp: DUAL_OCCUPANCY,
    lmr,
    place: i.lep,
    screenClause: DUAL_OCCUPANCY_SCREEN,
  });
  const fits = !noStorey(storeys) && floor.gfaM2 !== 0;
  const ok = site.ok && p.permitted && fits;
  const rule = `${opening(p)}${site.text}${fits ? "" : `; ${floor.text}`}`;
  return option("dual_occupancy", ok, 2, rule, site.clause, floor, null);
}

// Townhouses: the FSR's floor space within the height, and a site of 165 m² each; 120 m² of floor space each.
function townhouseOption(i: LowRiseInput, lmr: boolean): YieldOption | null {
  const { s, zone } = i;
  // R1 and R3 by the Standard Instrument (the LEP's FSR); R1-R4 in an LMR area at 0.7:1 or more.
  const fsr = lmr ? higher(i.lepFsr, MULTI_DWELLING_FSR) : SI_MULTI_DWELLING_ZONES.includes(zone) ? i.lepFsr : null;
  if (fsr === null || !MULTI_DWELLING_ZONES.includes(zone)) return null;
  const p = i.landUse.forms.multi_dwelling_housing;
  const height = lmr ? higher(i.lepHeightM, figure(MULTI_DWELLING, "maxHeightM")) : i.lepHeightM;
  const storeys = residentialStoreys(height);
  const floor = lowRiseFloor(s, fsr, lmr ? "FSR" : "LEP FSR", height, storeys);
  const sites = floorQ(s.a / TOWNHOUSE_SITE_M2);
  const bySite = sites * TOWNHOUSE_M2;
  const siteBinds = floor.gfaM2 === null || bySite < floor.gfaM2;
  const gfa = siteBinds ? bySite : (floor.gfaM2 as number);
  const n = floorQ(gfa / TOWNHOUSE_M2);
  const site = siteTest({
    s,
    form: "multi_dwelling_housing",
    zone,
    sepp: MULTI_DWELLING,
    lmr,
    place: i.lep,
    screenClause: LEP_FSR,
  });
  const sitesText = `${s.aText} ÷ ${TOWNHOUSE_SITE_TEXT} a townhouse = ${plural(sites, "site")} × ${TOWNHOUSE_TEXT} = ${formatArea(bySite)}`;
  const rule = `${opening(p)}${site.text}; ${floor.text}; ${sitesText}; ${formatArea(gfa)} ÷ ${TOWNHOUSE_TEXT} = ${plural(n, "townhouse")}`;
  const ok = site.ok && p.permitted && n > 0;
  return option(
    "multi_dwelling",
    ok,
    n,
    rule,
    site.clause,
    { ...floor, gfaM2: gfa },
    siteBinds ? "site" : floor.limitedBy,
  );
}

// Terraces: one a 165 m² and 6 m lot, within the FSR's floor space and the height at 120 m² each.
function terraceOption(i: LowRiseInput): YieldOption | null {
  if (!TERRACE_ZONES.includes(i.zone)) return null;
  const { s } = i;
  const p = i.landUse.forms.multi_dwelling_housing;
  const height = higher(i.lepHeightM, figure(TERRACES, "maxHeightM"));
  const storeys = residentialStoreys(height);
  const floor = lowRiseFloor(s, higher(i.lepFsr, figure(TERRACES, "maxFsr")), "FSR", height, storeys);
  const lots = Math.min(floorQ(s.a / TERRACE_LOT_M2), floorQ(s.w / TERRACE_LOT_WIDTH_M));
  const byFloor = floor.gfaM2 === null ? lots : floorQ(floor.gfaM2 / TOWNHOUSE_M2);
  const n = Math.min(lots, byFloor);
  const site = siteRule(s, TERRACE_MIN_AREA_M2, TERRACE_AREA_TEXT, TERRACE_MIN_FRONTAGE_M, TERRACE_FRONTAGE_TEXT);
  const floorText = byFloor < lots ? `; ${floor.text}, ÷ ${TOWNHOUSE_TEXT} = ${plural(byFloor, "terrace")}` : "";
  const rule = `${opening(p)}${site}; ${plural(lots, "terrace")} ${TERRACE_EACH_TEXT}${floorText}`;
  const ok = s.a >= TERRACE_MIN_AREA_M2 && s.w >= TERRACE_MIN_FRONTAGE_M && p.permitted && n > 0;
  const gfa = floor.gfaM2 === null ? null : Math.min(floor.gfaM2, lots * TOWNHOUSE_M2);
  return option(
    "terraces",
    ok,
    n,
    rule,
    TERRACES.clause,
    { ...floor, gfaM2: gfa },
    byFloor < lots ? floor.limitedBy : "site",
  );
}

// Residential flat buildings of manor-house scale in R1 and R2 (s 179(2)): 9.5 m, over a share of the site.
function lowRiseFlatsOption(i: LowRiseInput): YieldOption | null {
  if (!LOW_RISE_RFB_ZONES.includes(i.zone)) return null;
  const { s } = i;
  const p = i.landUse.forms.residential_flat_building;
  const height = higher(i.lepHeightM, LOW_RISE_RFB_HEIGHT_M);
  const storeys = residentialStoreys(height);
  const floor = lowRiseFloor(s, higher(i.lepFsr, LOW_RISE_RFB_FSR), "FSR", height, storeys);
  const gfa = floor.gfaM2 ?? 0;
  const n = apartmentsIn(gfa);
  const site = siteRule(
    s,
    LOW_RISE_RFB_MIN_AREA_M2,
    LOW_RISE_AREA_TEXT,
    LOW_RISE_RFB_MIN_FRONTAGE_M,
    LOW_RISE_FRONTAGE_TEXT,
  );
  const rule = `${opening(p)}${site}; ${floor.text}, ${UNITS_TEXT} = ${plural(n, "apartment")}`;
  const ok = s.a >= LOW_RISE_RFB_MIN_AREA_M2 && s.w >= LOW_RISE_RFB_MIN_FRONTAGE_M && p.permitted && n > 0;
  return option("low_rise_apartments", ok, n, rule, LOW_RISE_FLATS.clause, floor);
}

/** Every low-rise option the zone and the policy area allow, in the order ties go (the simpler form first). */
export function lowRiseOptions(i: LowRiseInput): YieldOption[] {
  const lmr = i.policy === "lmr_inner" || i.policy === "lmr_outer";
  const out = [subdivisionOption(i), dualOccupancyOption(i, lmr), townhouseOption(i, lmr)];
  if (lmr) out.push(terraceOption(i), lowRiseFlatsOption(i));
  return out.filter((o): o is YieldOption => o !== null);
}
