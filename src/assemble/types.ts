// What an amalgamation search takes and finds (docs/design.md section 14), independent of packs and HTTP.
import type { ASSEMBLY_SORTS } from "../routes/schemas/assemble-limits.ts";

/** A ring of [lon, lat] positions (closed or not). */
export type Ring = readonly (readonly [number, number])[];

/** A lot's outline for adjacency: its rings in lon/lat (holes may be given; only shared boundary counts). */
export type LotShape = { id: string; rings: readonly Ring[] };

/** A neighbour and the metres of boundary the two lots share. */
export type Neighbour = { id: string; sharedM: number };

/** Per lot id, its neighbours (sharing at least MIN_SHARED_M of boundary). */
export type Adjacency = ReadonlyMap<string, readonly Neighbour[]>;

/** What the search knows of a lot: candidates pass the request's filters; others are only neighbours. */
export type AssemblyLot = {
  id: string;
  /** What sentences call the lot (its lot id); `id` when not given. */
  name?: string;
  areaM2: number;
  /** Metres of the lot's boundary on a street (null: none known, counted as 0). */
  frontageM: number | null;
  zone: string | null;
  /** A strata scheme stands on the lot; `units` its lots (each an owner), null where unknown. */
  strata: boolean;
  units: number | null;
  candidate: boolean;
};

export type Target = { minAreaM2: number; minFrontageM?: number; maxLots: number };

/** The minimum a lot left beside a group must reach (a form's lot size and frontage) to stand on its own. */
export type Minimum = { areaM2: number; frontageM?: number };

export type AssemblySort = (typeof ASSEMBLY_SORTS)[number];

export type IsolatedLot = { id: string; areaM2: number; frontageM: number | null; why: string };

export type Group = {
  groupId: string;
  /** Lot ids, sorted. */
  lots: string[];
  areaM2: number;
  /** The sum of the members' street frontages. */
  frontageM: number;
  /** The zone covering most of the group's area. */
  zone: string | null;
  ownersCount: number;
  isolated: IsolatedLot[];
};

/** What the search did, for the bench and logs. */
export type AssemblyWork = {
  lots: number;
  candidates: number;
  /** Lot pairs whose boundaries were compared (boxes within the tolerance). */
  pairsCompared: number;
  /** Connected sets of candidates tried, and whether the cap stopped the search. */
  setsTried: number;
  capped: boolean;
  /** Minimal groups found before the one-lot-per-group choice. */
  minimalGroups: number;
  /** Sets tried while testing neighbours for isolation, and neighbours left unflagged because their cap was hit. */
  isolationSetsTried: number;
  isolationCapped: number;
};
