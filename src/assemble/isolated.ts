// Neighbours a group would isolate (the Land and Environment Court's isolated-site principle, Karavellas v Sutherland
// Shire Council [2004] NSWLEC 251: can the lot left over still reach orderly development on its own or with others?).
import { type Graph, walkConnectedSets } from "./connected-sets.ts";
import type { Adjacency, AssemblyLot, IsolatedLot, Minimum } from "./types.ts";

/** Sets tried per neighbour at most; a neighbour whose test hits it is not flagged (isolation is not proved). */
export const MAX_ISOLATION_SETS = 5_000;

const frontageOf = (lot: AssemblyLot): number => lot.frontageM ?? 0;
const fmt = (x: number) => Math.round(x).toLocaleString("en-AU");
const fmt1 = (x: number) => (Math.round(x * 10) / 10).toLocaleString("en-AU");

function meets(min: Minimum, area: number, frontage: number): boolean {
  return area >= min.areaM2 && (min.frontageM === undefined || frontage >= min.frontageM);
}

// What the lot misses on its own, as clauses.
function shortfalls(lot: AssemblyLot, min: Minimum): string[] {
  const out: string[] = [];
  if (lot.areaM2 < min.areaM2) out.push(`its ${fmt(lot.areaM2)} m² is under the ${fmt(min.areaM2)} m² minimum`);
  if (min.frontageM !== undefined && frontageOf(lot) < min.frontageM)
    out.push(`its ${fmt1(frontageOf(lot))} m frontage is under the ${fmt1(min.frontageM)} m minimum`);
  return out;
}

export type IsolationTest = {
  lots: ReadonlyMap<string, AssemblyLot>;
  adjacency: Adjacency;
  minimum: Minimum;
  /** The most lots the neighbour may join with (itself included): the request's max_lots. */
  maxLots: number;
  maxSets?: number;
};

/**
 * Each group is judged on its own, as a developer buys one: lots of other groups in the answer still count as lots a
 * neighbour could join.
 *
 * The lots adjoining `group` that, with the group bought, fail the minimum on their own and in every connected set
 * of at most maxLots lots they could still form with lots outside the group (found by walking those sets, capped).
 */
export function isolatedBy(
  group: readonly string[],
  t: IsolationTest,
  work: { sets: number; capped: number } = { sets: 0, capped: 0 },
): IsolatedLot[] {
  const inGroup = new Set(group);
  const beside = new Set<string>();
  for (const id of group) for (const n of t.adjacency.get(id) ?? []) if (!inGroup.has(n.id)) beside.add(n.id);
  const out: IsolatedLot[] = [];
  for (const id of [...beside].sort()) {
    const lot = t.lots.get(id);
    if (!lot || meets(t.minimum, lot.areaM2, frontageOf(lot))) continue;
    // The lots it could still join: reached through lots outside the group, at most maxLots - 1 steps away.
    const ids = [id];
    const index = new Map([[id, 0]]);
    for (let k = 0; k < ids.length; k++) {
      for (const n of t.adjacency.get(ids[k] as string) ?? []) {
        if (inGroup.has(n.id) || index.has(n.id) || !t.lots.has(n.id)) continue;
        index.set(n.id, ids.length);
        ids.push(n.id);
      }
      if (ids.length > 4096) break;
    }
    const members = ids.map((x) => t.lots.get(x) as AssemblyLot);
    const g: Graph = ids.map((x) =>
      (t.adjacency.get(x) ?? []).flatMap((n) => {
        const k = index.get(n.id);
        return k === undefined ? [] : [k];
      }),
    );
    let best = 0;
    let bestFrontage = 0;
    let joinable = false;
    const tried = { sets: 0, cap: t.maxSets ?? MAX_ISOLATION_SETS };
    const finished = walkConnectedSets(g, 0, (u) => u !== 0, {
      maxSize: t.maxLots,
      tried,
      visit(set) {
        let area = 0;
        let frontage = 0;
        for (const k of set) {
          area += (members[k] as AssemblyLot).areaM2;
          frontage += frontageOf(members[k] as AssemblyLot);
        }
        if (area > best) best = area;
        if (frontage > bestFrontage) bestFrontage = frontage;
        if (meets(t.minimum, area, frontage)) {
          joinable = true;
          return "halt";
        }
        return "extend";
      },
    });
    work.sets += tried.sets;
    if (joinable) continue;
    if (!finished) {
      work.capped++;
      continue;
    }
    const alone = shortfalls(lot, t.minimum).join(" and ");
    const others = g[0]?.length ?? 0;
    const name = lot.name ?? id;
    const most =
      t.minimum.frontageM === undefined ? `${fmt(best)} m²` : `${fmt(best)} m² and ${fmt1(bestFrontage)} m of frontage`;
    const why =
      others === 0
        ? `Lot ${name} would be left with no neighbour to join: ${alone}.`
        : `Lot ${name} would be left short: ${alone}, and joined with its remaining neighbours (up to ${t.maxLots} lots) it still falls short (at most ${most}).`;
    out.push({ id, areaM2: lot.areaM2, frontageM: lot.frontageM, why });
  }
  return out;
}
