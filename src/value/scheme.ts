// What a site's yield builds, as a valuation prices it: floor space by form, dwellings, and those new beyond what stands.
import { HOUSING_GFA_PER_DWELLING } from "./constants.ts";
import { formOf, type ValueForm } from "./forms.ts";
import type { ValueSite } from "./types.ts";

export interface SchemePart {
  form: ValueForm;
  gfaM2: number;
}

export interface Scheme {
  form: ValueForm; // the housing form, as a line's basis names it
  parts: SchemePart[]; // shop top housing: its apartments and its shops
  dwellings: number;
  newDwellings: number; // beyond what stands, never below 0: what contributions are levied on
  subdivision: boolean;
}

/** The scheme the yield describes; null where the yield builds no housing (employment land, too small, no FSR). */
export function schemeOf(site: ValueSite): Scheme | null {
  const form = formOf(site.yieldBasis);
  const gfa = site.gfaM2;
  const dwellings = site.dwellings;
  if (form === null || gfa === null || !(gfa > 0) || dwellings === null || !(dwellings > 0)) return null;
  const newDwellings = Math.max(0, dwellings - site.existing.dwellings);
  const base = { form, dwellings, newDwellings, subdivision: site.yieldBasis === "subdivision" };
  if (site.yieldBasis !== "shop_top_housing") return { ...base, parts: [{ form, gfaM2: gfa }] };
  const housing = Math.min(gfa, Math.round(dwellings * HOUSING_GFA_PER_DWELLING));
  const parts: SchemePart[] = [{ form, gfaM2: housing }];
  if (gfa > housing) parts.push({ form: "commercial", gfaM2: gfa - housing });
  return { ...base, parts };
}
