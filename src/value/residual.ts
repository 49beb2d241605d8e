// The residual land value of a scheme: gross realisation less each cost, less transfer duty and finance on the land
// price itself, solved to the whole dollar (docs/valuation.md, "Method").
import { formatNumber } from "../scoring/format.ts";
import { type Assumptions, salePrice } from "./assumptions.ts";
import { DRAWDOWN_SHARE, STATUTORY_PCT } from "./constants.ts";
import type { DutySchedule } from "./duty/schedule.ts";
import { FORM_WORDS, SALEABLE_SHARE } from "./forms.ts";
import { landCosts, landPrice, of } from "./land-price.ts";
import type { Scheme } from "./scheme.ts";
import type { CostLine } from "./types.ts";

/** One change at a time for the sensitivity figures: sale prices and construction costs scaled. */
export interface Scale {
  price: number;
  cost: number;
}

export interface Residual {
  grossRealisation: number;
  grossBasis: string; // saleable area by form times its price, as a report prints the first bar
  costs: CostLine[];
  rlv: number;
}

const money = (x: number) => `$${formatNumber(x)}`;
const pctText = (x: number) => `${Number.isInteger(x) ? formatNumber(x) : String(x)}%`;
const m2 = (x: number) => `${formatNumber(x)} m²`;

/** The gross realisation alone: each part's saleable area at its price, as realisation() words it. */
function grossOf(scheme: Scheme, a: Assumptions, suburb: string | null, scale: Scale): number {
  let total = 0;
  for (const p of scheme.parts)
    total += Math.round(p.gfaM2 * SALEABLE_SHARE[p.form]) * Math.round(salePrice(a, suburb, p.form) * scale.price);
  return total;
}

const buildRate = (a: Assumptions, form: Scheme["parts"][number]["form"], scale: Scale) =>
  Math.round(a.build_cost_m2[form] * scale.cost);

/** The costs that do not depend on the land, whole dollars: buildCosts words them, residualLandValue only sums them. */
function costAmounts(scheme: Scheme, a: Assumptions, gross: number, scale: Scale) {
  let construction = 0;
  for (const p of scheme.parts) construction += p.gfaM2 * buildRate(a, p.form, scale);
  const n = scheme.newDwellings;
  const hpcApplies = scheme.dwellings >= 2;
  const fees = of(construction, a.fees_pct);
  const statutory = of(construction, STATUTORY_PCT);
  const contributions = n * a.contributions_per_dwelling;
  const hpc = hpcApplies ? n * a.hpc_per_dwelling : 0;
  const contingency = of(construction, a.contingency_pct);
  // Summed from 0 in the lines' order, so the figure is the lines' sum to the last bit.
  const drawn = 0 + construction + fees + statutory + contributions + hpc + contingency;
  const marketing = of(gross, a.marketing_pct);
  const commission = of(gross, a.commission_pct);
  // Marketing and commission are paid from sales; the rest is drawn evenly over the programme.
  const finance = Math.round(drawn * ((a.finance_pct / 100) * (a.programme_months / 12)) * DRAWDOWN_SHARE);
  const fixed = drawn + marketing + commission + finance;
  return {
    construction,
    n,
    hpcApplies,
    fees,
    statutory,
    contributions,
    hpc,
    contingency,
    drawn,
    marketing,
    commission,
    finance,
    fixed,
  };
}

function realisation(scheme: Scheme, a: Assumptions, suburb: string | null, scale: Scale) {
  const parts: string[] = [];
  for (const p of scheme.parts) {
    const share = SALEABLE_SHARE[p.form];
    const price = Math.round(salePrice(a, suburb, p.form) * scale.price);
    const saleable = Math.round(p.gfaM2 * share);
    parts.push(
      `${m2(saleable)} saleable (${m2(p.gfaM2)} GFA × ${formatNumber(share * 100)}%) of ${FORM_WORDS[p.form]} × ${money(price)}/m²`,
    );
  }
  return {
    total: grossOf(scheme, a, suburb, scale),
    basis: `${parts.join(" + ")}${suburb === null ? " (default prices: suburb not known)" : ` in ${suburb}`}`,
  };
}

/** Costs that do not depend on the land price, each a line, whole dollars. */
function buildCosts(scheme: Scheme, a: Assumptions, gross: number, scale: Scale): CostLine[] {
  const c = costAmounts(scheme, a, gross, scale);
  const parts = scheme.parts.map(
    (p) => `${m2(p.gfaM2)} GFA of ${FORM_WORDS[p.form]} × ${money(buildRate(a, p.form, scale))}/m²`,
  );
  const dwellings = `${formatNumber(c.n)} new ${c.n === 1 ? "dwelling" : "dwellings"}`;
  return [
    { item: "construction", amount: c.construction, basis: parts.join(" + ") },
    { item: "professional fees", amount: c.fees, basis: `${pctText(a.fees_pct)} of construction` },
    {
      item: "statutory fees",
      amount: c.statutory,
      basis: `${pctText(STATUTORY_PCT)} of construction (DA, construction certificate, long service levy; the model's allowance)`,
    },
    {
      item: "council contributions",
      amount: c.contributions,
      basis: `${dwellings} × ${money(a.contributions_per_dwelling)}`,
    },
    {
      item: "housing and productivity contribution",
      amount: c.hpc,
      basis: c.hpcApplies
        ? `${dwellings} × ${money(a.hpc_per_dwelling)} (a scheme of 2 or more dwellings in Greater Sydney)`
        : "does not apply: a single dwelling",
    },
    { item: "contingency", amount: c.contingency, basis: `${pctText(a.contingency_pct)} of construction` },
    { item: "marketing", amount: c.marketing, basis: `${pctText(a.marketing_pct)} of gross realisation` },
    { item: "sales commission", amount: c.commission, basis: `${pctText(a.commission_pct)} of gross realisation` },
    {
      item: "finance on construction",
      amount: c.finance,
      basis: `${pctText(a.finance_pct)} a year over ${formatNumber(a.programme_months)} months on ${money(c.drawn)} drawn evenly (half outstanding on average)`,
    },
  ];
}

const UNSCALED: Scale = { price: 1, cost: 1 };

/** The residual: the largest whole-dollar land price L whose duty, land finance and margin the scheme still pays. */
export function residual(
  scheme: Scheme,
  a: Assumptions,
  suburb: string | null,
  duty: DutySchedule,
  scale: Scale = UNSCALED,
): Residual {
  const gross = realisation(scheme, a, suburb, scale);
  const lines = buildCosts(scheme, a, gross.total, scale);
  const fixed = lines.reduce((s, l) => s + l.amount, 0);
  const L = landPrice(fixed, gross.total, a, duty);
  const land = landCosts(Math.max(L, 0), fixed, gross.total, a, duty);
  // The margin takes what the whole-dollar land price leaves (a few dollars), so the lines add up to the realisation.
  const margin = gross.total - fixed - L - land.duty - land.finance;
  lines.push(
    {
      item: "finance on land",
      amount: land.finance,
      basis: `${pctText(a.finance_pct)} a year over ${formatNumber(a.programme_months)} months on the land price and its duty`,
    },
    {
      item: "transfer duty",
      amount: land.duty,
      basis: `NSW transfer duty on the land price ${money(Math.max(L, 0))} (${duty.id}, from ${duty.effectiveFrom})`,
    },
    {
      item: "developer's margin",
      amount: margin,
      basis:
        a.margin_basis === "cost"
          ? `${pctText(a.margin_pct)} of total cost including the land`
          : `${pctText(a.margin_pct)} of gross realisation`,
    },
  );
  return { grossRealisation: gross.total, grossBasis: gross.basis, costs: lines, rlv: L };
}

/** The same residual land value, without the wording of its lines: what a sort or a sensitivity figure needs. */
export function residualLandValue(
  scheme: Scheme,
  a: Assumptions,
  suburb: string | null,
  duty: DutySchedule,
  scale: Scale = UNSCALED,
): number {
  const gross = grossOf(scheme, a, suburb, scale);
  return landPrice(costAmounts(scheme, a, gross, scale).fixed, gross, a, duty);
}
