// The three sites of docs/valuation.md's worked examples, each as a valuation reads it.
import type { ValueSite } from "../../../src/value/types.ts";

const house = { kind: "house", dwellings: 1, assumed: false } as const;

export const DUAL_OCCUPANCY: ValueSite = {
  suburb: "Epping",
  areaM2: 600,
  yieldBasis: "dual_occupancy",
  dwellings: 2,
  gfaM2: 390,
  existing: house,
};

export const TOWNHOUSES: ValueSite = {
  suburb: "Carlingford",
  areaM2: 1_200,
  yieldBasis: "multi_dwelling",
  dwellings: 7,
  gfaM2: 840,
  existing: house,
};

export const MID_RISE: ValueSite = {
  suburb: "Eastwood",
  areaM2: 1_400,
  yieldBasis: "mid_rise_apartments",
  dwellings: 27,
  gfaM2: 3_080,
  existing: house,
};
