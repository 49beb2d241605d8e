// Whether each form of housing may be built on the lot: the Standard Instrument's land use table for its zone, with the
// permissions the Housing SEPP adds (s 166 dual occupancies in R2; Chapter 6 in a low and mid rise housing area;
// Chapter 5 in a TOD area). A form the table leaves to the council is not counted: the LEP must be checked.
import {
  R2_DUAL_OCCUPANCY,
  LMR_FLATS,
  LMR_MULTI_DWELLING,
  type Permission,
  TOD_FLATS,
  TOD_SHOP_TOP,
  LMR_EXCLUSIONS,
} from "./rules/housing-sepp.ts";
import { FORM_TERMS, HOUSING_FORMS, type HousingForm, landUseTable, type ZoneLandUse } from "./rules/land-use.ts";
import type { PolicyArea, YieldBasis } from "./types.ts";

/** The form of housing each development option builds. */
export const FORM_OF_BASIS: Readonly<Partial<Record<YieldBasis, HousingForm>>> = {
  subdivision: "dwelling_house",
  dual_occupancy: "dual_occupancy",
  multi_dwelling: "multi_dwelling_housing",
  terraces: "multi_dwelling_housing",
  low_rise_apartments: "residential_flat_building",
  mid_rise_apartments: "residential_flat_building",
  tod_apartments: "residential_flat_building",
  apartments: "residential_flat_building",
  shop_top_housing: "shop_top_housing",
};

export interface LandUseInput {
  zone: string | null;
  policy: PolicyArea;
  /** Why Chapter 6 of the Housing SEPP does not apply to the lot (s 164(1)), or null when it does. */
  chapter6ExcludedBy: string | null;
}

export interface FormPermission {
  permitted: boolean;
  /** The instrument that decides: the zone's table, or the state policy that permits the form. */
  citation: string;
  /** What it says, e.g. "dual occupancies permitted with consent". */
  says: string;
}

export interface LandUse {
  table: ZoneLandUse | null;
  forms: Readonly<Record<HousingForm, FormPermission>>;
  /** Some form of housing may be built with consent (feasibility.housing_permitted). */
  housingPermitted: boolean;
}

// The state permissions that can lift a form the table leaves to the council, and where each applies.
function statePermission(form: HousingForm, i: LandUseInput, zone: string): Permission | null {
  const has = (p: Permission) => p.zones.includes(zone);
  const lmr = i.policy === "lmr_inner" || i.policy === "lmr_outer";
  if (form === "dual_occupancy" && i.chapter6ExcludedBy === null && has(R2_DUAL_OCCUPANCY)) return R2_DUAL_OCCUPANCY;
  if (form === "multi_dwelling_housing" && lmr && has(LMR_MULTI_DWELLING)) return LMR_MULTI_DWELLING;
  if ((form === "residential_flat_building" || form === "shop_top_housing") && lmr && has(LMR_FLATS)) return LMR_FLATS;
  if (form === "residential_flat_building" && i.policy === "tod" && has(TOD_FLATS)) return TOD_FLATS;
  if (form === "shop_top_housing" && i.policy === "tod" && has(TOD_SHOP_TOP)) return TOD_SHOP_TOP;
  return null;
}

const UNKNOWN_ZONE: FormPermission = { permitted: false, citation: "", says: "" };

// Lots share a few zones and policy areas: each combination is worked out once.
const memo = new Map<string, LandUse>();
const MAX_MEMO = 1_024;

/** The land use the lot's zone and policy area allow, form by form. */
export function landUseFor(i: LandUseInput): LandUse {
  const key = `${i.zone}|${i.policy}|${i.chapter6ExcludedBy === null ? 0 : 1}`;
  const seen = memo.get(key);
  if (seen) return seen;
  const table = i.zone === null ? null : landUseTable(i.zone);
  const forms = {} as Record<HousingForm, FormPermission>;
  for (const form of HOUSING_FORMS) {
    const term = FORM_TERMS[form];
    const status = table?.forms[form];
    if (table === null || status === undefined) forms[form] = UNKNOWN_ZONE;
    else if (status === "permitted")
      forms[form] = { permitted: true, citation: table.citation, says: `${term} permitted with consent` };
    else if (status === "prohibited")
      forms[form] = { permitted: false, citation: table.citation, says: `${term} prohibited` };
    else {
      const by = statePermission(form, i, table.zone);
      forms[form] = by
        ? { permitted: true, citation: by.clause, says: `${term} permitted with consent ${by.where}` }
        : { permitted: false, citation: table.citation, says: `${term} left to the council's LEP` };
    }
  }
  const out: LandUse = { table, forms, housingPermitted: HOUSING_FORMS.some((f) => forms[f].permitted) };
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(key, out);
  return out;
}

// "a, b and c"
function joinAnd(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

// The sentences made, per land use and exclusion.
const sentences = new WeakMap<LandUse, Map<string, string | null>>();

/**
 * One sentence: what the land use allows, each part with its citation, e.g. "Land use: dwelling houses permitted with
 * consent (Standard Instrument LEP, Land Use Table, zone R2 Low Density Residential); ...". Null without a table.
 */
export function landUseSentence(u: LandUse, excludedBy: string | null): string | null {
  // Most lots share a land use and an exclusion: the sentence is made once for each.
  let byExclusion = sentences.get(u);
  if (byExclusion === undefined) {
    byExclusion = new Map();
    sentences.set(u, byExclusion);
  }
  const key = excludedBy ?? "";
  let out = byExclusion.get(key);
  if (out === undefined) {
    out = sentenceOf(u, excludedBy);
    if (byExclusion.size >= MAX_MEMO) byExclusion.clear();
    byExclusion.set(key, out);
  }
  return out;
}

function sentenceOf(u: LandUse, excludedBy: string | null): string | null {
  const t = u.table;
  if (t === null) return null;
  if (t.says !== null) return `Land use: ${t.says} (${t.citation}).`;
  // Group the forms by what is said of them and who says it, in the order of HOUSING_FORMS.
  const groups = new Map<string, { terms: string[]; tail: string; citation: string }>();
  for (const form of HOUSING_FORMS) {
    const p = u.forms[form];
    const term = FORM_TERMS[form];
    const tail = p.says.slice(term.length);
    const key = `${tail}|${p.citation}`;
    const g = groups.get(key) ?? { terms: [], tail, citation: p.citation };
    g.terms.push(term);
    groups.set(key, g);
  }
  const parts = [...groups.values()].map((g) => `${joinAnd(g.terms)}${g.tail} (${g.citation})`);
  const optional = HOUSING_FORMS.some((f) => !u.forms[f].permitted && u.forms[f].says.endsWith("council's LEP"));
  const why =
    excludedBy !== null && t.forms.dual_occupancy === "council_optional" && t.zone === "R2"
      ? `; ${R2_DUAL_OCCUPANCY.clause} does not apply here (${LMR_EXCLUSIONS.clause}): ${excludedBy}`
      : "";
  return `Land use: ${parts.join("; ")}${why}${optional ? ". What is left to the council is not counted: check the LEP." : "."}`;
}
