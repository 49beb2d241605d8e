// The Apartment Design Guide's figures the model builds an apartment envelope from (NSW Department of Planning and
// Environment, July 2015; given effect by Housing SEPP 2021 Chapter 4, formerly SEPP 65). Each holds the Part a reason
// cites. docs/scoring.md section 7 gives the sources.

/** Part 4C (ceiling heights): 2.7 m habitable ceilings, 3.3 m for the ground floor of a mixed use building. */
export const FLOOR_TO_FLOOR = {
  clause: "Apartment Design Guide 2015 Part 4C",
  published: "2015-07",
  /** A residential storey: the 2.7 m minimum ceiling with its slab and services. */
  residentialM: 3.1,
  /** A ground floor for shops or offices: the 3.3 m mixed use minimum ceiling with its slab and services. */
  groundCommercialM: 4,
} as const;

/** One band of Part 3F's separations: the building's storeys up to a count, and the setback to side and rear. */
export type SeparationBand = { readonly upToStoreys: number | null; readonly setbackM: number };

/**
 * Part 3F (visual privacy), Objective 3F-1, design criterion 1: from habitable rooms and balconies to the side and
 * rear boundaries, 6 m up to 12 m (4 storeys), 9 m up to 25 m (5-8 storeys), 12 m over 25 m (9 storeys and more).
 * Each storey keeps the separation of its own band, so a taller building steps back above the fourth and eighth.
 */
export const BUILDING_SEPARATION = {
  clause: "Apartment Design Guide 2015 Part 3F",
  published: "2015-07",
  bands: [
    { upToStoreys: 4, setbackM: 6 },
    { upToStoreys: 8, setbackM: 9 },
    { upToStoreys: null, setbackM: 12 },
  ] as readonly SeparationBand[],
} as const;

/** The side and rear setback of storey k (1 = the ground floor). */
export function separationAt(storey: number): number {
  for (const b of BUILDING_SEPARATION.bands) if (b.upToStoreys === null || storey <= b.upToStoreys) return b.setbackM;
  return BUILDING_SEPARATION.bands.at(-1)?.setbackM ?? 0;
}
