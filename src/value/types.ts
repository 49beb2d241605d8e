// What a valuation reads from a scored site and what it answers (docs/design.md section 13, `value`).
import type { SiteValueShape } from "../routes/schemas/valuation.ts";
import type { ExistingShown, YieldBasis } from "../scoring/types.ts";

/** The figures of a feasibility result a valuation rests on, and the suburb whose prices apply. */
export interface ValueSite {
  suburb: string | null;
  areaM2: number;
  yieldBasis: YieldBasis;
  dwellings: number | null; // the yield
  gfaM2: number | null; // the yield's form's floor space
  existing: ExistingShown;
}

/** docs/design.md section 13's `value`, as the contract states it: AUD, whole dollars. */
export type SiteValue = SiteValueShape;
export type CostLine = SiteValue["costs"][number];
