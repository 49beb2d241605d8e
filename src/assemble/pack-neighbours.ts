// An assembly's adjacency from the packs' precomputed neighbours (issue 55): each lot read names its neighbours by
// their ordinal in its pack, kept where the neighbour was read too, so it equals what comparing the outlines of the
// same lots gives (the build ran that comparison, adjacency.ts). Pairs no one pack stores (a lot of an import beside
// one of the world, or of a pack built without the column) are measured from the outlines, and only those.
import Flatbush from "flatbush";
import { featureBBox } from "../geo/bbox.ts";
import { adjacentPairs, nearBox } from "../packs/paged/index.ts";
import type { ReadLot } from "./read-lots.ts";
import type { Adjacency, Neighbour } from "./types.ts";

/** The read lots' adjacency and the lot pairs whose outlines were compared to make it (0 where one pack stores all). */
export type ReadAdjacency = { adjacency: Adjacency; pairsCompared: number };

// The pack whose column holds the pair of two of its lots, or null where the lot's pack stores none.
const storedIn = (r: ReadLot): string | null => (r.at && r.at.neighbours !== null ? r.pack : null);

/**
 * Every read lot's neighbours: from its pack's column for two lots of one pack carrying it, else from the outlines,
 * compared only for lots whose box comes within the tolerance of a lot the column cannot answer for.
 */
export function readAdjacency(read: readonly ReadLot[]): ReadAdjacency {
  const keys = read.map(storedIn);
  const byOrdinal = new Map<string, Map<number, string>>();
  read.forEach((r, i) => {
    const pack = keys[i];
    if (pack === null || pack === undefined || !r.at) return;
    const m = byOrdinal.get(pack) ?? new Map<number, string>();
    m.set(r.at.ordinal, r.lot.id);
    byOrdinal.set(pack, m);
  });
  const adjacency = new Map<string, Neighbour[]>(read.map((r) => [r.lot.id, []]));
  read.forEach((r, i) => {
    const pack = keys[i];
    const mine = pack ? byOrdinal.get(pack) : undefined;
    const list = adjacency.get(r.lot.id);
    if (!mine || !list) return;
    for (const n of r.at?.neighbours ?? []) {
      const id = mine.get(n.ordinal);
      if (id !== undefined && id !== r.lot.id) list.push({ id, sharedM: n.sharedM });
    }
  });
  const stored = (i: number, j: number) => keys[i] !== null && keys[i] === keys[j];
  const measure = lotsToMeasure(read, stored);
  if (measure.length === 0) return { adjacency, pairsCompared: 0 };
  const pairsCompared = adjacentPairs(
    measure.length,
    (k) => (read[measure[k] as number] as ReadLot).shape.rings,
    (a, b, m) => {
      const x = read[measure[a] as number] as ReadLot;
      const y = read[measure[b] as number] as ReadLot;
      if (x.lot.id === y.lot.id) return;
      adjacency.get(x.lot.id)?.push({ id: y.lot.id, sharedM: m });
      adjacency.get(y.lot.id)?.push({ id: x.lot.id, sharedM: m });
    },
    (a, b) => !stored(measure[a] as number, measure[b] as number),
  );
  return { adjacency, pairsCompared };
}

// The lots (by place in `read`) with a lot near them (boxes within the tolerance) whose pair no column holds.
function lotsToMeasure(read: readonly ReadLot[], stored: (i: number, j: number) => boolean): number[] {
  // A lot without a position is near no other, as the kernel finds it.
  const placed = read.flatMap((r, i) => {
    const b = featureBBox(r.layer, r.index);
    return Number.isFinite(b[0]) ? [{ i, b }] : [];
  });
  if (placed.length < 2) return [];
  const index = new Flatbush(placed.length);
  for (const { b } of placed) index.add(b[0], b[1], b[2], b[3]);
  index.finish();
  const at = placed.map((p) => p.i);
  return at.filter((i, k) => {
    const [w, s, e, n] = nearBox((placed[k] as (typeof placed)[number]).b);
    return index.search(w, s, e, n).some((q) => at[q] !== i && !stored(i, at[q] as number));
  });
}
