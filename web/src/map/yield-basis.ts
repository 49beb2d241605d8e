// The score's yield basis in words. Keys the model adds later still read: "mid_rise_apartments" -> "Mid rise apartments".
const BASIS_LABEL: Record<string, string> = {
  apartments: "Apartments under the LEP",
  tod_apartments: "Apartments under the TOD controls",
  mid_rise_apartments: "Mid-rise apartments",
  low_rise_apartments: "Low-rise apartments",
  terraces: "Terraces",
  multi_dwelling: "Townhouses (multi dwelling housing)",
  shop_top_housing: "Shop top housing (shops below, apartments above)",
  subdivision: "Subdivision into lots of the minimum size",
  dual_occupancy: "Dual occupancy",
  single_dwelling: "A single dwelling",
  floor_space: "Floor space (employment zone)",
  too_small: "None: the lot is too small to build on",
  no_fsr: "None: no FSR is mapped here",
  not_residential: "None: the zone does not permit housing",
  no_zone: "None: no zone is mapped here",
};

export function basisLabel(basis: string): string {
  const known = BASIS_LABEL[basis];
  if (known) return known;
  const words = basis.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One development option the model tested, when the answer lists them (feasibility v2's `yield_options`). */
export type YieldOption = { basis: string; permitted: boolean; dwellings: number | null; rule: string | null };

export function yieldOptions(feasibility: object): YieldOption[] {
  const raw = (feasibility as { yield_options?: unknown }).yield_options;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((o: unknown) => {
    if (typeof o !== "object" || o === null) return [];
    const { basis, permitted, dwellings, rule } = o as Record<string, unknown>;
    if (typeof basis !== "string") return [];
    return [
      {
        basis,
        permitted: permitted === true,
        dwellings: typeof dwellings === "number" ? dwellings : null,
        rule: typeof rule === "string" ? rule : null,
      },
    ];
  });
}
