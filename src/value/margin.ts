// A site's margin over its as-is value alone (docs/design.md section 13): what a site search sorted by value orders by,
// from the same scheme, residual and as-is functions a score's `value` is made of, so the two never disagree.
import { asIsValue } from "./as-is.ts";
import type { Assumptions } from "./assumptions.ts";
import { NSW_DUTY_2025_26 } from "./duty/nsw-2025-26.ts";
import type { DutySchedule } from "./duty/schedule.ts";
import { residual } from "./residual.ts";
import { schemeOf } from "./scheme.ts";
import type { ValueSite } from "./types.ts";

/** RLV less the as-is value, whole dollars, as `siteValue` reports it; null where the yield builds no housing. */
export function marginOverAsIs(site: ValueSite, a: Assumptions, duty: DutySchedule = NSW_DUTY_2025_26): number | null {
  const scheme = schemeOf(site);
  if (scheme === null) return null;
  return residual(scheme, a, site.suburb, duty).rlv - asIsValue(site, a);
}
