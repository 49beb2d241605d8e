// The land price a scheme can pay (docs/valuation.md, "Method"): the largest whole dollar L whose duty, land finance
// and margin still fit under the realisation. Every term rises with L, so that L is one number however it is found.
import type { Assumptions } from "./assumptions.ts";
import { type DutySchedule, transferDuty } from "./duty/schedule.ts";

/** pct% of x, whole dollars. */
export const of = (x: number, pct: number): number => Math.round((x * pct) / 100);

/** The land-dependent costs at land price L: duty, finance on land and duty, and the margin's nominal figure. */
export function landCosts(L: number, fixed: number, gross: number, a: Assumptions, duty: DutySchedule) {
  const d = transferDuty(duty, L);
  const finance = Math.round((L + d) * (a.finance_pct / 100) * (a.programme_months / 12));
  const base = a.margin_basis === "cost" ? fixed + L + d + finance : gross;
  return { duty: d, finance, margin: of(base, a.margin_pct) };
}

/** Everything the scheme pays at land price L: the fixed costs, the land, and the land's own costs. */
export function totalCost(L: number, fixed: number, gross: number, a: Assumptions, duty: DutySchedule): number {
  const c = landCosts(L, fixed, gross, a, duty);
  return fixed + L + c.duty + c.finance + c.margin;
}

// Below this many dollars between two probes, their secant is rounding noise (duty moves in $100 steps).
const WIDE = 1024;
// Secant steps before plain halving takes over: it converges in about 5 on every scheme met, so this is a guard.
const SECANT_STEPS = 12;

/**
 * The residual land price: negative (the shortfall) when free land does not fit, else the largest whole dollar L
 * with totalCost(L) <= gross. Found by secant steps kept inside a shrinking bracket: a handful of costings, where
 * halving took about 25 (a search prices every lot of an area). Relies on every cost rising with L, duty included.
 */
export function landPrice(fixed: number, gross: number, a: Assumptions, duty: DutySchedule): number {
  const t0 = totalCost(0, fixed, gross, a, duty);
  // The scheme cannot pay for free land: the shortfall is the (negative) residual; no land, so no duty on it.
  if (t0 > gross) return gross - t0;
  // Every cost but the land itself is at least its figure at 0, so no L past gross - t0 fits: lo fits, hi bounds.
  let lo = 0;
  let hi = Math.floor(gross - t0);
  let x = hi;
  let px = 0;
  let pf = t0 - gross;
  let slope = 1;
  for (let step = 0; lo < hi; step++) {
    const f = totalCost(x, fixed, gross, a, duty) - gross;
    if (f <= 0) lo = x;
    else hi = x - 1;
    // The total rises at least a dollar a dollar: a secant over a wide span is its slope there, a narrow one noise.
    if (Math.abs(x - px) >= WIDE) slope = Math.max(1, (f - pf) / (x - px));
    px = x;
    pf = f;
    x = step < SECANT_STEPS ? Math.floor(x - f / slope) : Math.ceil((lo + hi) / 2);
    if (x <= lo) x = lo + 1;
    if (x > hi) x = hi;
  }
  return lo;
}
