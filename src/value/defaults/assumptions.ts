// The assumptions shipped with the service, version 0: illustrative, each figure's basis in docs/valuation.md.
import type { Assumptions } from "../assumptions.ts";
import { FORM_FACTOR, GRADIENT } from "./price-gradient.ts";
import { SUBURB_PRICES } from "./suburb-prices.ts";

// AIQS Building Cost Index, September 2023, Sydney, as reproduced by koste.com.au, raised 25% for the lag it warns of.
export const BUILD_COST_BASIS = {
  house: { aiqs: 1_910, line: "Standard House (Medium)" },
  dual_occupancy: { aiqs: 1_910, line: "Standard House (Medium)" },
  townhouse: { aiqs: 2_720, line: "Townhouse" },
  low_rise_apartment: { aiqs: 2_590, line: "Apartments - Low Rise" },
  apartment: { aiqs: 2_880, line: "Apartments - High Rise (Medium)" },
  commercial: { aiqs: 2_590, line: "Apartments - Low Rise (no shop figure read)" },
} as const;
export const BUILD_COST_UPLIFT = 1.25;

const cost = (aiqs: number) => Math.round((aiqs * BUILD_COST_UPLIFT) / 100) * 100;
const away = GRADIENT.base; // the gradient's floor: a place far from the CBD, stations and the coast

export const DEFAULT_ASSUMPTIONS: Assumptions = {
  sale_price_m2: {
    default: {
      house: Math.round((away * FORM_FACTOR.house) / 100) * 100,
      dual_occupancy: Math.round((away * FORM_FACTOR.dual_occupancy) / 100) * 100,
      townhouse: Math.round((away * FORM_FACTOR.townhouse) / 100) * 100,
      low_rise_apartment: Math.round((away * FORM_FACTOR.low_rise_apartment) / 100) * 100,
      apartment: Math.round((away * FORM_FACTOR.apartment) / 100) * 100,
      commercial: Math.round((away * FORM_FACTOR.commercial) / 100) * 100,
    },
    by_suburb: SUBURB_PRICES,
  },
  build_cost_m2: {
    house: cost(BUILD_COST_BASIS.house.aiqs),
    dual_occupancy: cost(BUILD_COST_BASIS.dual_occupancy.aiqs),
    townhouse: cost(BUILD_COST_BASIS.townhouse.aiqs),
    low_rise_apartment: cost(BUILD_COST_BASIS.low_rise_apartment.aiqs),
    apartment: cost(BUILD_COST_BASIS.apartment.aiqs),
    commercial: cost(BUILD_COST_BASIS.commercial.aiqs),
  },
  fees_pct: 10,
  contingency_pct: 5,
  contributions_per_dwelling: 20_000,
  hpc_per_dwelling: 8_000,
  marketing_pct: 1.5,
  commission_pct: 2,
  programme_months: 24,
  finance_pct: 8,
  margin_pct: 20,
  margin_basis: "cost",
};
