// The forms a valuation prices, as a plain list (no zod): the schemas key prices and costs by them, the web lists them.
export const VALUE_FORMS = [
  "house",
  "dual_occupancy",
  "townhouse",
  "low_rise_apartment",
  "apartment",
  "commercial",
] as const;
