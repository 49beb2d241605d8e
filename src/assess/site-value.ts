// A scored site's `value` on the organisation's assumptions, priced in the suburb holding the lot (docs/valuation.md).
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import type { FeasibilityResult } from "../scoring/index.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";
import type { SiteValue } from "../value/types.ts";
import { siteValue, valueSiteOf } from "../value/value-site.ts";
import { suburbOfLot } from "./suburb-of.ts";

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** The suburb whose prices apply: the one holding the lot's label point, else the one its parcel records; neither: null. */
export function pricedSuburb(packs: readonly Pack[], parcel: ParcelHit): string | null {
  return text(suburbOfLot(packs, parcel)?.name) ?? text(parcel.props.suburb);
}

/** The site's value in its priced suburb (default prices where it has none). */
export function valueOfScored(
  packs: readonly Pack[],
  parcel: ParcelHit,
  result: FeasibilityResult,
  assumptions: AssumptionsDocument,
): SiteValue {
  return siteValue(valueSiteOf(result, pricedSuburb(packs, parcel)), assumptions, assumptions.version);
}
