// The amalgamation engine (docs/design.md section 14), pure: lots and their outlines in, chosen groups out.
import { adjacencyOf } from "./adjacency.ts";
import { findGroups } from "./groups.ts";
import { isolatedBy } from "./isolated.ts";
import type { Adjacency, AssemblyLot, AssemblySort, AssemblyWork, Group, LotShape, Minimum, Target } from "./types.ts";

export type AssemblyInput = {
  /** Every lot read: candidates (passing the filters) and the lots around them. */
  lots: readonly AssemblyLot[];
  shapes: readonly LotShape[];
  /** The lots' adjacency when their packs store it (pack-neighbours.ts); else computed from `shapes`. */
  adjacency?: Adjacency;
  /** Lot pairs whose outlines were compared in making `adjacency` (those no pack's column held). */
  pairsCompared?: number;
  target: Target;
  /** What a neighbour must reach on its own; the target's area and frontage when not given. */
  minimum?: Minimum;
  sort?: AssemblySort;
  excludeStrata?: boolean;
  packVersion: string;
  maxSetsTried?: number;
  /** The page of chosen groups to return (isolation is tested for those only): from `offset`, `limit` of them. */
  offset?: number;
  limit?: number;
};

/** `count`: every chosen group; `groups`: the page asked for. */
export type AssemblyResult = { count: number; groups: Group[]; work: AssemblyWork };

/** Every chosen group, in the order asked, each with the neighbours it would isolate. */
export function assembleGroups(input: AssemblyInput): AssemblyResult {
  const lots = new Map(input.lots.map((l) => [l.id, l]));
  const { adjacency, pairsCompared } = input.adjacency
    ? { adjacency: input.adjacency, pairsCompared: input.pairsCompared ?? 0 }
    : adjacencyOf(input.shapes);
  const found = findGroups({
    lots,
    adjacency,
    target: input.target,
    sort: input.sort ?? "owners",
    excludeStrata: input.excludeStrata ?? false,
    packVersion: input.packVersion,
    maxSetsTried: input.maxSetsTried,
  });
  const minimum = input.minimum ?? {
    areaM2: input.target.minAreaM2,
    ...(input.target.minFrontageM !== undefined ? { frontageM: input.target.minFrontageM } : {}),
  };
  const isolation = { sets: 0, capped: 0 };
  const from = input.offset ?? 0;
  const page = found.groups.slice(from, from + (input.limit ?? found.groups.length));
  const groups = page.map((g) => {
    const ids = g.lots.map((l) => l.id);
    return {
      groupId: g.groupId,
      lots: ids,
      areaM2: g.areaM2,
      frontageM: g.frontageM,
      zone: g.zone,
      ownersCount: g.ownersCount,
      isolated: isolatedBy(ids, { lots, adjacency, minimum, maxLots: input.target.maxLots }, isolation),
    };
  });
  return {
    count: found.groups.length,
    groups,
    work: {
      lots: lots.size,
      candidates: found.candidates,
      pairsCompared,
      setsTried: found.setsTried,
      capped: found.capped,
      minimalGroups: found.minimal,
      isolationSetsTried: isolation.sets,
      isolationCapped: isolation.capped,
    },
  };
}
