// The valuation's contract (docs/design.md section 13): an organisation's assumptions, as PUT takes them and GET answers
// them, and the `value` of a charged answer (AUD, whole dollars, on a named assumptions version).
import { z } from "@hono/zod-openapi";
import { VALUE_FORMS } from "./value-forms.ts";

type ValueForm = (typeof VALUE_FORMS)[number];

const price = z.number().gt(0).max(1_000_000);
const amount = z.number().min(0).max(10_000_000);
const pct = z.number().min(0).lt(100);

function perForm(field: z.ZodNumber) {
  const shape = Object.fromEntries(VALUE_FORMS.map((f) => [f, field])) as Record<ValueForm, z.ZodNumber>;
  return z.object(shape);
}

/** The figures: a negative amount, a percentage of 100 or more, or a price of 0 is refused, naming the field. */
export const AssumptionsSchema = z
  .object({
    sale_price_m2: z.object({
      default: perForm(price).openapi({ description: "Per m² of saleable area, by form: a suburb not listed" }),
      by_suburb: z
        .record(z.string().trim().min(1).max(100), perForm(price))
        .refine((r) => Object.keys(r).length <= 2000, "At most 2,000 suburbs"),
    }),
    build_cost_m2: perForm(price).openapi({ description: "Construction per m² of GFA, by form" }),
    fees_pct: pct,
    contingency_pct: pct,
    contributions_per_dwelling: amount,
    hpc_per_dwelling: amount.openapi({ description: "The Housing and Productivity Contribution per new dwelling" }),
    marketing_pct: pct,
    commission_pct: pct,
    programme_months: z.number().int().min(0).max(120),
    finance_pct: pct.openapi({ description: "A year" }),
    margin_pct: pct,
    margin_basis: z.enum(["cost", "realisation"]),
  })
  .openapi("ValuationAssumptionsInput");

const stamp = {
  version: z.number().int().min(0).openapi({ description: "0: the shipped defaults, never edited" }),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable().openapi({ description: "The user id of whoever made this version" }),
  illustrative: z.boolean().openapi({ description: "True for the shipped defaults: illustrative figures" }),
};
export const AssumptionsDocumentSchema = AssumptionsSchema.extend(stamp).openapi("ValuationAssumptions");
export const AssumptionsHistorySchema = z.array(z.strictObject(stamp)).openapi("ValuationAssumptionsHistory");

const Dollars = z.number().int();

export const SiteValueSchema = z
  .strictObject({
    model: z.string().openapi({ example: "rlv-v1" }),
    assumptions_version: z.number().int().min(0).openapi({ description: "0: the illustrative defaults" }),
    gross_realisation: Dollars.openapi({ description: "Saleable area by form times its sale price per m²" }),
    costs: z.array(z.strictObject({ item: z.string(), amount: Dollars, basis: z.string() })),
    rlv: Dollars.openapi({
      description: "Residual land value: what the scheme can pay for the land (below 0: nothing)",
    }),
    as_is: Dollars.openapi({ description: "What stands on the lot at the area's price: what its owner would take" }),
    margin_over_as_is: Dollars.openapi({ description: "rlv − as_is: above 0, the scheme can outbid the owner's use" }),
    per_dwelling: Dollars.nullable(),
    sensitivity: z.strictObject({
      price_minus_10: Dollars,
      price_plus_10: Dollars,
      cost_minus_10: Dollars,
      cost_plus_10: Dollars,
    }),
  })
  .openapi("SiteValue");

export type AssumptionsInput = z.infer<typeof AssumptionsSchema>;
export type AssumptionsDocumentShape = z.infer<typeof AssumptionsDocumentSchema>;
export type SiteValueShape = z.infer<typeof SiteValueSchema>;
