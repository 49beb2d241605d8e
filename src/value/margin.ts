// A site's margin over its as-is value alone (docs/design.md section 13): what a site search sorted by value orders by,
// from the same scheme, residual and as-is functions a score's `value` is made of, so the two never disagree.
import { asIsValue } from "./as-is.ts";
import type { Assumptions } from "./assumptions.ts";
import { NSW_DUTY_2025_26 } from "./duty/nsw-2025-26.ts";
import type { DutySchedule } from "./duty/schedule.ts";
import { residualLandValue } from "./residual.ts";
import { type Scheme, schemeOf } from "./scheme.ts";
import type { ValueSite } from "./types.ts";

/** Residuals already solved, by suburb and scheme: one search's lots repeat their neighbours' schemes. */
export type ResidualMemo = Map<string, number>;

// Everything of a scheme the residual reads, with the suburb whose prices apply.
const schemeKey = (s: Scheme, suburb: string | null): string =>
  `${suburb ?? ""}\u0000${s.dwellings}\u0000${s.newDwellings}\u0000${s.subdivision}\u0000${s.parts.map((p) => `${p.form}:${p.gfaM2}`).join()}`;

/**
 * The residual land value of the site's scheme, whole dollars, as marginOverAsIs takes it; null where the yield builds
 * no housing. `memo` as marginOverAsIs's.
 */
export function siteResidual(
  site: ValueSite,
  a: Assumptions,
  duty: DutySchedule = NSW_DUTY_2025_26,
  memo?: ResidualMemo,
): number | null {
  const scheme = schemeOf(site);
  if (scheme === null) return null;
  const key = memo ? schemeKey(scheme, site.suburb) : "";
  let rlv = memo?.get(key);
  if (rlv === undefined) {
    rlv = residualLandValue(scheme, a, site.suburb, duty);
    memo?.set(key, rlv);
  }
  return rlv;
}

/**
 * RLV less the as-is value, whole dollars, as `siteValue` reports it; null where the yield builds no housing. `memo`
 * (for one set of assumptions only) keeps each scheme's residual for the next lot with the same one.
 */
export function marginOverAsIs(
  site: ValueSite,
  a: Assumptions,
  duty: DutySchedule = NSW_DUTY_2025_26,
  memo?: ResidualMemo,
): number | null {
  const rlv = siteResidual(site, a, duty, memo);
  return rlv === null ? null : rlv - asIsValue(site, a);
}
