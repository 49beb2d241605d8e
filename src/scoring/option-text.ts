// What every development option shares: the lot as its rule shows it, the arithmetic of dwellings from floor space,
// and the phrases its rule is made of (each figure as shown, so a planner can redo the sums).
import { APARTMENT_EFFICIENCY, AVERAGE_UNIT_M2, LOW_RISE_SITE_COVERAGE, ROOF_ALLOWANCE_M } from "./constants.ts";
import { floorQ, formatArea, formatMetres, formatNumber, formatPercent, roundTo } from "./format.ts";
import type { FormPermission } from "./permissibility.ts";
import { FLOOR_TO_FLOOR } from "./rules/apartment-design-guide.ts";

/** Apartments in a given floor space: 75 % saleable, 85 m² a unit. */
export function apartmentsIn(gfaM2: number): number {
  return floorQ((gfaM2 * APARTMENT_EFFICIENCY) / AVERAGE_UNIT_M2);
}

export const fsrText = (v: number): string => `${formatNumber(v, 2)}:1`;

/** A lot's area, frontage and depth (area over frontage, 0.1 m) as shown, formatted once per lot. */
export type Shown = { a: number; aText: string; w: number; wText: string; d: number; dText: string };

export function shownLot(a: number, w: number): Shown {
  const d = w > 0 ? roundTo(a / w, 1) : 0;
  return { a, aText: formatArea(a), w, wText: formatMetres(w), d, dText: formatMetres(d) };
}

// Two joins, not a template's four: the rules are most of a score's text.
export const cmp = (vText: string, v: number, min: number, minText: string): string =>
  vText + (v >= min ? " ≥ " : " < ") + minText;
export const siteRule = (s: Shown, minA: number, minAText: string, minW: number, minWText: string): string =>
  `lot ${cmp(s.aText, s.a, minA, minAText)}, frontage ${cmp(s.wText, s.w, minW, minWText)}`;

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${formatNumber(n)} ${n === 1 ? one : many}`;

/** The rule's opening when the land use does not count the form: who decides, and that it is not counted. */
export function notCountedText(p: FormPermission): string {
  return `${p.says} (${p.citation}), not counted: check the LEP; `;
}

// The model's fixed figures as the rules show them, formatted once.
export const UNITS_TEXT = `× ${formatNumber(APARTMENT_EFFICIENCY * 100)}% ÷ ${formatArea(AVERAGE_UNIT_M2)}`;
const STOREY_TEXT = `${formatMetres(FLOOR_TO_FLOOR.residentialM)} a storey and ${formatMetres(ROOF_ALLOWANCE_M)} for the roof, ${FLOOR_TO_FLOOR.clause}`;
const COVERAGE_TEXT = formatPercent(LOW_RISE_SITE_COVERAGE);

/** "9.5 m = 2 storeys (3.1 m a storey and 1 m for the roof, Apartment Design Guide 2015 Part 4C)". */
export function storeysText(heightM: number, storeys: number): string {
  return `${formatMetres(heightM)} = ${plural(storeys, "storey")} (${STOREY_TEXT})`;
}

/** The floor space a low-rise form may have under its height: "2 storeys in 9.5 m × 50% of the lot = 612 m²". */
export function lowRiseCapText(s: Shown, heightM: number, storeys: number, capM2: number): string {
  return `${storeysText(heightM, storeys)} × ${COVERAGE_TEXT} of ${s.aText} = ${formatArea(capM2)}`;
}
