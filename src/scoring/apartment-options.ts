// The apartment ways to develop a lot: mid-rise flats in a low and mid rise housing area, flats under the TOD controls,
// flats under the LEP, and shop top housing in centres and mixed use zones. Each is the FSR's floor space within the
// Apartment Design Guide's envelope of the storeys its height allows, counted only where the land use permits it.
import {
  GROUND_COMMERCIAL_STOREY_M,
  RESIDENTIAL_STOREY_M,
  ROOF_ALLOWANCE_M,
  TOD_FSR,
  TOD_HEIGHT_M,
  TOD_MIN_FRONTAGE_M,
  TOD_ZONES,
} from "./constants.ts";
import { residentialStoreys, storeysAboveShops } from "./envelope.ts";
import { apartmentFloor, shopTopFloor } from "./floor-space.ts";
import { formatMetres } from "./format.ts";
import { higher, LEP_FSR } from "./low-rise-options.ts";
import { apartmentsIn, cmp, notCountedText, plural, type Shown, UNITS_TEXT } from "./option-text.ts";
import type { FormPermission, LandUse } from "./permissibility.ts";
import { FLOOR_TO_FLOOR } from "./rules/apartment-design-guide.ts";
import {
  figure,
  MID_RISE_INNER,
  MID_RISE_INNER_STOREYS,
  MID_RISE_OUTER,
  MID_RISE_OUTER_STOREYS,
  type StoreyLimit,
  TOD_APARTMENTS,
  TOD_SHOP_TOP,
} from "./rules/housing-sepp.ts";
import type { PolicyArea, YieldOption } from "./types.ts";

export interface ApartmentInput {
  s: Shown;
  zone: string;
  lepFsr: number | null;
  lepHeightM: number | null;
  policy: PolicyArea;
  landUse: LandUse;
}

const MID_RISE_ZONES: readonly string[] = MID_RISE_INNER.zones;
// Zones whose flats the LEP's FSR and height set: where the table permits them, or leaves them to the council in a
// mixed use zone (listed, not counted).
const LEP_FLAT_ZONES: readonly string[] = ["R1", "R4", "MU1"];
const TOD_FRONTAGE_TEXT = formatMetres(TOD_MIN_FRONTAGE_M);
// The ground floor as the rule shows it: shops or offices, with its storey and the residential storeys of Part 4C.
const GROUND = {
  text: `ground floor shops or offices (${formatMetres(GROUND_COMMERCIAL_STOREY_M)}, housing storeys ${formatMetres(RESIDENTIAL_STOREY_M)}, ${FLOOR_TO_FLOOR.clause})`,
  storeyM: GROUND_COMMERCIAL_STOREY_M,
  roofM: ROOF_ALLOWANCE_M,
};

const opening = (p: FormPermission): string => (p.permitted ? "" : notCountedText(p));

function flats(
  basis: YieldOption["basis"],
  i: ApartmentInput,
  fsr: number,
  fsrLabel: string,
  height: number | null,
  storeyLimit: StoreyLimit | null,
  site: string,
  siteOk: boolean,
  clause: string,
): YieldOption {
  const p = i.landUse.forms.residential_flat_building;
  const fromHeight = residentialStoreys(height);
  // The policy's storey limit, stated wherever its height is relied on, binds when the height holds more.
  const storeys =
    storeyLimit !== null && fromHeight !== null && fromHeight > storeyLimit.storeys ? storeyLimit.storeys : fromHeight;
  const floor = apartmentFloor({
    s: i.s,
    fsr,
    fsrLabel,
    heightM: height,
    heightStoreys: fromHeight,
    storeys,
    storeyLimit,
  });
  const n = apartmentsIn(floor.gfaM2 ?? 0);
  return {
    basis,
    permitted: siteOk && p.permitted && n > 0,
    dwellings: n,
    rule: `${opening(p)}${site}${floor.text}, ${UNITS_TEXT} = ${plural(n, "apartment")}`,
    clause,
    gfaM2: floor.gfaM2,
    storeys: floor.storeys,
    limitedBy: floor.limitedBy,
  };
}

// s 180: the inner or outer area's FSR and height (the LEP's when higher), and the storeys of s 175(2) or s 176(2)
// when the SEPP's height is the one relied on.
function midRiseOption(i: ApartmentInput): YieldOption | null {
  if (!MID_RISE_ZONES.includes(i.zone)) return null;
  const inner = i.policy === "lmr_inner";
  const standard = inner ? MID_RISE_INNER : MID_RISE_OUTER;
  const sepp = figure(standard, "maxHeightM");
  const bySepp = i.lepHeightM === null || i.lepHeightM <= sepp;
  const height = bySepp ? sepp : (i.lepHeightM as number);
  const limit = bySepp ? (inner ? MID_RISE_INNER_STOREYS : MID_RISE_OUTER_STOREYS) : null;
  const fsr = higher(i.lepFsr, figure(standard, "maxFsr"));
  return flats("mid_rise_apartments", i, fsr, "FSR", height, limit, "", true, standard.clause);
}

// Chapter 5: 2.5:1 and 22 m (the LEP's when higher) on a lot at least 21 m wide.
function todOption(i: ApartmentInput): YieldOption | null {
  if (!(TOD_ZONES.includes(i.zone) && i.zone.startsWith("R"))) return null;
  const ok = i.s.w >= TOD_MIN_FRONTAGE_M;
  const site = `frontage ${cmp(i.s.wText, i.s.w, TOD_MIN_FRONTAGE_M, TOD_FRONTAGE_TEXT)}; `;
  const height = higher(i.lepHeightM, TOD_HEIGHT_M);
  return flats("tod_apartments", i, higher(i.lepFsr, TOD_FSR), "FSR", height, null, site, ok, TOD_APARTMENTS.clause);
}

function lepFlatsOption(i: ApartmentInput): YieldOption | null {
  if (!LEP_FLAT_ZONES.includes(i.zone) || i.lepFsr === null) return null;
  return flats("apartments", i, i.lepFsr, "LEP FSR", i.lepHeightM, null, "", true, LEP_FSR);
}

// Shop top housing under the LEP's FSR and height, or (in a TOD area, on a lot 21 m wide) Chapter 5's.
function shopTopOption(i: ApartmentInput, tod: boolean): YieldOption | null {
  const p = i.landUse.forms.shop_top_housing;
  if (tod && !TOD_SHOP_TOP.zones.includes(i.zone)) return null;
  const fsr = tod ? higher(i.lepFsr, TOD_FSR) : i.lepFsr;
  if (fsr === null) return null;
  const height = tod ? higher(i.lepHeightM, TOD_HEIGHT_M) : i.lepHeightM;
  const floor = shopTopFloor(i.s, fsr, tod ? "FSR" : "LEP FSR", height, storeysAboveShops(height), GROUND);
  const n = apartmentsIn(floor.residentialM2);
  const siteOk = !tod || i.s.w >= TOD_MIN_FRONTAGE_M;
  const site = tod ? `frontage ${cmp(i.s.wText, i.s.w, TOD_MIN_FRONTAGE_M, TOD_FRONTAGE_TEXT)}; ` : "";
  return {
    basis: "shop_top_housing",
    permitted: siteOk && p.permitted && n > 0,
    dwellings: n,
    rule: `${opening(p)}${site}${floor.text}, ${UNITS_TEXT} = ${plural(n, "apartment")}`,
    clause: tod ? TOD_SHOP_TOP.clause : LEP_FSR,
    gfaM2: floor.gfaM2,
    storeys: floor.storeys,
    limitedBy: floor.limitedBy,
  };
}

/** Every apartment option the zone and the policy area allow. */
export function apartmentOptions(i: ApartmentInput): YieldOption[] {
  const lmr = i.policy === "lmr_inner" || i.policy === "lmr_outer";
  const out = [
    lmr ? midRiseOption(i) : null,
    i.policy === "tod" ? todOption(i) : null,
    lepFlatsOption(i),
    i.landUse.table?.forms.shop_top_housing === "permitted" ? shopTopOption(i, false) : null,
    i.policy === "tod" ? shopTopOption(i, true) : null,
  ];
  return out.filter((o): o is YieldOption => o !== null);
}
