// An organisation's valuation assumptions (docs/design.md section 13) and the schema a PUT is held to: a negative
// amount, a percentage of 100 or more, or a price of 0 is refused, naming the field.
import { type AssumptionsInput, AssumptionsSchema } from "../routes/schemas/valuation.ts";
import type { ValueForm } from "./forms.ts";

export { AssumptionsSchema };

/** The figures a valuation reads; the stored document adds its version and who made it. */
export type Assumptions = AssumptionsInput;
export type PerForm = Assumptions["build_cost_m2"];

/** One version of an organisation's assumptions as GET /valuation/assumptions answers it. */
export interface AssumptionsDocument extends Assumptions {
  version: number;
  updated_at: string | null;
  updated_by: string | null;
  illustrative: boolean;
}

/** The sale price per m² of saleable area for a form in a suburb: the suburb's own, else the default. */
export function salePrice(a: Assumptions, suburb: string | null, form: ValueForm): number {
  const own = suburb === null ? undefined : a.sale_price_m2.by_suburb[suburb];
  return own?.[form] ?? a.sale_price_m2.default[form];
}
