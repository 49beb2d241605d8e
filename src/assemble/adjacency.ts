// Which lots of an assembly adjoin (docs/design.md section 14), by lot id: the pack kernel's pairs
// (src/packs/paged/adjacency.ts, what a lots pack's neighbours column is built with), keyed by the lots' ids.
import { adjacentPairs } from "../packs/paged/index.ts";
import type { Adjacency, LotShape, Neighbour } from "./types.ts";

export { adjacentPairs, MIN_SHARED_M, sharedLengthM } from "../packs/paged/index.ts";

/** Every lot's neighbours with the boundary they share (lots of one id counted once). */
export function adjacencyOf(lots: readonly LotShape[]): { adjacency: Adjacency; pairsCompared: number } {
  const adjacency = new Map<string, Neighbour[]>(lots.map((l) => [l.id, []]));
  const pairsCompared = adjacentPairs(
    lots.length,
    (i) => (lots[i] as LotShape).rings,
    (i, j, m) => {
      const a = (lots[i] as LotShape).id;
      const b = (lots[j] as LotShape).id;
      if (a === b) return;
      adjacency.get(a)?.push({ id: b, sharedM: m });
      adjacency.get(b)?.push({ id: a, sharedM: m });
    },
  );
  return { adjacency, pairsCompared };
}
