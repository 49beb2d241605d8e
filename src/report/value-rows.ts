// The assumptions a site's value rested on, as label and figure for its report page: the prices of the form it was
// valued as, in its suburb, and the organisation's rates.
import type { YieldBasis } from "../scoring/types.ts";
import { type Assumptions, salePrice } from "../value/assumptions.ts";
import { FORM_WORDS, formOf } from "../value/forms.ts";
import { dollars } from "../routes/schemas/value-waterfall.ts";

export type AssumptionRow = [string, string];

const pct = (n: number) => `${n}%`;

export function assumptionRows(a: Assumptions, basis: YieldBasis, suburb: string | null): AssumptionRow[] {
  const form = formOf(basis);
  const priced = form
    ? ([
        [
          `Sale price, ${FORM_WORDS[form]}${suburb ? ` in ${suburb}` : ""}`,
          `${dollars(salePrice(a, suburb, form))} /m²`,
        ],
        [`Build cost, ${FORM_WORDS[form]}`, `${dollars(a.build_cost_m2[form])} /m² GFA`],
      ] as AssumptionRow[])
    : [];
  return [
    ...priced,
    ["Professional fees", `${pct(a.fees_pct)} of construction`],
    ["Contingency", `${pct(a.contingency_pct)} of construction`],
    ["Council contributions", `${dollars(a.contributions_per_dwelling)} a dwelling`],
    ["Housing and Productivity Contribution", `${dollars(a.hpc_per_dwelling)} a dwelling`],
    ["Marketing", `${pct(a.marketing_pct)} of realisation`],
    ["Sales commission", `${pct(a.commission_pct)} of realisation`],
    ["Programme", `${a.programme_months} months`],
    ["Finance", `${pct(a.finance_pct)} a year`],
    ["Developer's margin", `${pct(a.margin_pct)} on ${a.margin_basis}`],
  ];
}
