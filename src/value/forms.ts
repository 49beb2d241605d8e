// The forms a scheme is valued as, and which yield basis each feasibility form is valued under (docs/valuation.md).
import type { YieldBasis } from "../scoring/types.ts";

import { VALUE_FORMS } from "../routes/schemas/value-forms.ts";

// The list is the contract's, so the schemas, the valuation and the web name the same forms.
export { VALUE_FORMS };
export type ValueForm = (typeof VALUE_FORMS)[number];

/** Saleable area over GFA per form: apartments keep the yield's own 75% (docs/scoring.md section 7). */
export const SALEABLE_SHARE: Readonly<Record<ValueForm, number>> = {
  house: 1,
  dual_occupancy: 1,
  townhouse: 1,
  low_rise_apartment: 0.75,
  apartment: 0.75,
  commercial: 0.9,
};

// The housing form each yield basis builds; null: the yield is no scheme to value.
const FORM_OF: Readonly<Record<YieldBasis, ValueForm | null>> = {
  single_dwelling: "house",
  subdivision: "house",
  dual_occupancy: "dual_occupancy",
  multi_dwelling: "townhouse",
  terraces: "townhouse",
  low_rise_apartments: "low_rise_apartment",
  mid_rise_apartments: "apartment",
  tod_apartments: "apartment",
  apartments: "apartment",
  shop_top_housing: "apartment",
  too_small: null,
  floor_space: null,
  no_fsr: null,
  not_residential: null,
  no_zone: null,
};

export function formOf(basis: YieldBasis): ValueForm | null {
  return FORM_OF[basis];
}

/** Plain words for a form, as a cost line's basis prints it. */
export const FORM_WORDS: Readonly<Record<ValueForm, string>> = {
  house: "house",
  dual_occupancy: "dual occupancy",
  townhouse: "townhouses",
  low_rise_apartment: "low-rise apartments",
  apartment: "apartments",
  commercial: "shops",
};
