// A site's `value` (docs/design.md section 13): the residual land value of its yield, the as-is value of what stands,
// the margin between them and the four sensitivity figures, on one organisation's assumptions.
import type { FeasibilityResult } from "../scoring/types.ts";
import { asIsValue } from "./as-is.ts";
import type { Assumptions } from "./assumptions.ts";
import { SENSITIVITY_STEP, VALUE_MODEL } from "./constants.ts";
import { NSW_DUTY_2025_26 } from "./duty/nsw-2025-26.ts";
import type { DutySchedule } from "./duty/schedule.ts";
import { residual, residualLandValue } from "./residual.ts";
import { schemeOf } from "./scheme.ts";
import type { SiteValue, ValueSite } from "./types.ts";

/** The figures of a scored site a valuation reads, with the suburb whose prices apply. */
export function valueSiteOf(result: FeasibilityResult, suburb: string | null): ValueSite {
  return {
    suburb,
    areaM2: result.areaM2,
    yieldBasis: result.yieldBasis,
    dwellings: result.dwellingYield,
    gfaM2: result.gfaPotentialM2,
    existing: result.existing,
  };
}

export function siteValue(
  site: ValueSite,
  a: Assumptions,
  version: number,
  duty: DutySchedule = NSW_DUTY_2025_26,
): SiteValue {
  const asIs = asIsValue(site, a);
  const scheme = schemeOf(site);
  if (scheme === null) {
    // No housing to build: nothing to realise, so no residual beyond what stands.
    const zero = { price_minus_10: 0, price_plus_10: 0, cost_minus_10: 0, cost_plus_10: 0 };
    return {
      model: VALUE_MODEL,
      assumptions_version: version,
      gross_realisation: 0,
      costs: [],
      rlv: 0,
      as_is: asIs,
      margin_over_as_is: -asIs,
      per_dwelling: null,
      sensitivity: zero,
    };
  }
  const at = (price: number, cost: number) => residualLandValue(scheme, a, site.suburb, duty, { price, cost });
  const r = residual(scheme, a, site.suburb, duty);
  const s = SENSITIVITY_STEP;
  return {
    model: VALUE_MODEL,
    assumptions_version: version,
    gross_realisation: r.grossRealisation,
    costs: r.costs,
    rlv: r.rlv,
    as_is: asIs,
    margin_over_as_is: r.rlv - asIs,
    per_dwelling: Math.round(r.rlv / scheme.dwellings),
    sensitivity: {
      price_minus_10: at(1 - s, 1),
      price_plus_10: at(1 + s, 1),
      cost_minus_10: at(1, 1 - s),
      cost_plus_10: at(1, 1 + s),
    },
  };
}
