// An assembly's adjacency from the packs' precomputed neighbours (issue 55): each lot read names its neighbours by
// their ordinal in its pack, kept where the neighbour was read too, so it equals what comparing the outlines of the
// same lots gives (the build ran that comparison, adjacency.ts).
import type { ReadLot } from "./read-lots.ts";
import type { Adjacency, Neighbour } from "./types.ts";

/**
 * The read lots' adjacency from their pack, or null (compare outlines instead) when a lot's pack stores none or the
 * lots come from more than one pack: a pack knows its own lots' neighbours, not those of an upload lying beside them.
 */
export function packAdjacency(read: readonly ReadLot[]): Adjacency | null {
  const pack = read[0]?.pack;
  // One pack: a lot's place is its ordinal alone.
  const byOrdinal = new Map<number, string>();
  for (const r of read) {
    if (!r.at || r.at.neighbours === null || r.pack !== pack) return null;
    byOrdinal.set(r.at.ordinal, r.lot.id);
  }
  const adjacency = new Map<string, Neighbour[]>();
  for (const r of read) {
    const at = r.at as NonNullable<ReadLot["at"]>;
    const list: Neighbour[] = [];
    for (const n of at.neighbours ?? []) {
      const id = byOrdinal.get(n.ordinal);
      if (id !== undefined && id !== r.lot.id) list.push({ id, sharedM: n.sharedM });
    }
    adjacency.set(r.lot.id, list);
  }
  return adjacency;
}
