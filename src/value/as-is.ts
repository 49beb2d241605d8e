// What the owner would take: what stands on the lot (feasibility v3's `existing`) at the area's price per m².
import { type Assumptions, salePrice } from "./assumptions.ts";
import { AS_IS_FLOOR_M2, EMPLOYMENT_FSR_ASSUMED } from "./constants.ts";
import type { ValueSite } from "./types.ts";

/** Whole dollars; a vacant lot's is 0 (no land value is modelled: the figure is what stands, not the ground). */
export function asIsValue(site: ValueSite, a: Assumptions): number {
  const e = site.existing;
  const at = (form: Parameters<typeof salePrice>[2], m2: number) => Math.round(m2 * salePrice(a, site.suburb, form));
  switch (e.kind) {
    case "house":
      return at("house", Math.max(1, e.dwellings) * AS_IS_FLOOR_M2.house);
    case "dual_occupancy":
      return at("dual_occupancy", e.dwellings * AS_IS_FLOOR_M2.dual_occupancy);
    case "strata":
      return at("apartment", (e.units ?? e.dwellings) * AS_IS_FLOOR_M2.strata);
    case "employment":
      return at("commercial", e.floorSpaceM2 ?? Math.round(site.areaM2 * EMPLOYMENT_FSR_ASSUMED));
    case "vacant":
      return 0;
  }
}
