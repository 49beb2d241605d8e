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
/** A line's basis in words (residualLandValue, pricing every lot of a search, builds no lines: fixedOf). */
type Say = (words: () => string) => string;
const SAY: Say = (words) => words();

/** The gross realisation alone: each part's saleable area at its price, as realisation() words it. */
function grossOf(scheme: Scheme, a: Assumptions, suburb: string | null, scale: Scale): number {
  let total = 0;
  for (const p of scheme.parts)
    total += Math.round(p.gfaM2 * SALEABLE_SHARE[p.form]) * Math.round(salePrice(a, suburb, p.form) * scale.price);
  return total;
}

/** Construction, the amount of buildCosts' first line. */
function constructionOf(scheme: Scheme, a: Assumptions, scale: Scale): number {
  let construction = 0;
  for (const p of scheme.parts) construction += p.gfaM2 * Math.round(a.build_cost_m2[p.form] * scale.cost);
  return construction;
}

/** Each of buildCosts' amounts in its order, summed as its lines are: the costs that do not depend on the land. */
function fixedOf(scheme: Scheme, a: Assumptions, gross: number, scale: Scale): number {
  const construction = constructionOf(scheme, a, scale);
  const n = scheme.newDwellings;
  let drawn = 0;
  drawn += construction;
  drawn += of(construction, a.fees_pct);
  drawn += of(construction, STATUTORY_PCT);
  drawn += n * a.contributions_per_dwelling;
  drawn += scheme.dwellings >= 2 ? n * a.hpc_per_dwelling : 0;
  drawn += of(construction, a.contingency_pct);
  let fixed = drawn;
  fixed += of(gross, a.marketing_pct);
  fixed += of(gross, a.commission_pct);
  return fixed + financeOnConstruction(drawn, a);
}

// Marketing and commission are paid from sales; the rest is drawn evenly over the programme.
const financeOnConstruction = (drawn: number, a: Assumptions) =>
  Math.round(drawn * ((a.finance_pct / 100) * (a.programme_months / 12)) * DRAWDOWN_SHARE);

function realisation(scheme: Scheme, a: Assumptions, suburb: string | null, scale: Scale, say: Say) {
  let total = 0;
  const parts: string[] = [];
  for (const p of scheme.parts) {
    const share = SALEABLE_SHARE[p.form];
    const price = Math.round(salePrice(a, suburb, p.form) * scale.price);
    const saleable = Math.round(p.gfaM2 * share);
    total += saleable * price;
    parts.push(
      say(
        () =>
          `${m2(saleable)} saleable (${m2(p.gfaM2)} GFA × ${formatNumber(share * 100)}%) of ${FORM_WORDS[p.form]} × ${money(price)}/m²`,
      ),
    );
  }
  return {
    total,
    basis: say(
      () => `${parts.join(" + ")}${suburb === null ? " (default prices: suburb not known)" : ` in ${suburb}`}`,
    ),
  };
}

/** Costs that do not depend on the land price, each a line, whole dollars. */
function buildCosts(scheme: Scheme, a: Assumptions, gross: number, scale: Scale, say: Say): CostLine[] {
  let construction = 0;
  const parts: string[] = [];
  for (const p of scheme.parts) {
    const rate = Math.round(a.build_cost_m2[p.form] * scale.cost);
    construction += p.gfaM2 * rate;
    parts.push(say(() => `${m2(p.gfaM2)} GFA of ${FORM_WORDS[p.form]} × ${money(rate)}/m²`));
  }
  const n = scheme.newDwellings;
  const hpcApplies = scheme.dwellings >= 2;
  const lines: CostLine[] = [
    { item: "construction", amount: construction, basis: say(() => parts.join(" + ")) },
    {
      item: "professional fees",
      amount: of(construction, a.fees_pct),
      basis: say(() => `${pctText(a.fees_pct)} of construction`),
    },
    {
      item: "statutory fees",
      amount: of(construction, STATUTORY_PCT),
      basis: say(
        () =>
          `${pctText(STATUTORY_PCT)} of construction (DA, construction certificate, long service levy; the model's allowance)`,
      ),
    },
    {
      item: "council contributions",
      amount: n * a.contributions_per_dwelling,
      basis: say(
        () => `${formatNumber(n)} new ${n === 1 ? "dwelling" : "dwellings"} × ${money(a.contributions_per_dwelling)}`,
      ),
    },
    {
      item: "housing and productivity contribution",
      amount: hpcApplies ? n * a.hpc_per_dwelling : 0,
      basis: say(() =>
        hpcApplies
          ? `${formatNumber(n)} new ${n === 1 ? "dwelling" : "dwellings"} × ${money(a.hpc_per_dwelling)} (a scheme of 2 or more dwellings in Greater Sydney)`
          : "does not apply: a single dwelling",
      ),
    },
    {
      item: "contingency",
      amount: of(construction, a.contingency_pct),
      basis: say(() => `${pctText(a.contingency_pct)} of construction`),
    },
    {
      item: "marketing",
      amount: of(gross, a.marketing_pct),
      basis: say(() => `${pctText(a.marketing_pct)} of gross realisation`),
    },
    {
      item: "sales commission",
      amount: of(gross, a.commission_pct),
      basis: say(() => `${pctText(a.commission_pct)} of gross realisation`),
    },
  ];
  const drawn = lines.slice(0, 6).reduce((s, l) => s + l.amount, 0);
  lines.push({
    item: "finance on construction",
    amount: financeOnConstruction(drawn, a),
    basis: say(
      () =>
        `${pctText(a.finance_pct)} a year over ${formatNumber(a.programme_months)} months on ${money(drawn)} drawn evenly (half outstanding on average)`,
    ),
  });
  return lines;
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
  return solve(scheme, a, suburb, duty, scale, SAY);
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
  return landPrice(fixedOf(scheme, a, gross, scale), gross, a, duty);
}

function solve(scheme: Scheme, a: Assumptions, suburb: string | null, duty: DutySchedule, scale: Scale, say: Say) {
  const gross = realisation(scheme, a, suburb, scale, say);
  const lines = buildCosts(scheme, a, gross.total, scale, say);
  const fixed = lines.reduce((s, l) => s + l.amount, 0);
  const L = landPrice(fixed, gross.total, a, duty);
  const land = landCosts(Math.max(L, 0), fixed, gross.total, a, duty);
  // The margin takes what the whole-dollar land price leaves (a few dollars), so the lines add up to the realisation.
  const margin = gross.total - fixed - L - land.duty - land.finance;
  lines.push(
    {
      item: "finance on land",
      amount: land.finance,
      basis: say(
        () =>
          `${pctText(a.finance_pct)} a year over ${formatNumber(a.programme_months)} months on the land price and its duty`,
      ),
    },
    {
      item: "transfer duty",
      amount: land.duty,
      basis: say(
        () => `NSW transfer duty on the land price ${money(Math.max(L, 0))} (${duty.id}, from ${duty.effectiveFrom})`,
      ),
    },
    {
      item: "developer's margin",
      amount: margin,
      basis: say(() =>
        a.margin_basis === "cost"
          ? `${pctText(a.margin_pct)} of total cost including the land`
          : `${pctText(a.margin_pct)} of gross realisation`,
      ),
    },
  );
  return { grossRealisation: gross.total, grossBasis: gross.basis, costs: lines, rlv: L };
}
