// Minimal groups of adjoining candidate lots that together meet a target, and the choice of one group per lot.
import { type Graph, walkConnectedSets } from "./connected-sets.ts";
import { groupIdOf } from "./group-id.ts";
import type { Adjacency, AssemblyLot, AssemblySort, Target } from "./types.ts";

/** Connected sets tried per search at most: past this the search ends with the groups found so far. */
export const MAX_SETS_TRIED = 200_000;

export type FoundGroup = {
  groupId: string;
  lots: AssemblyLot[];
  areaM2: number;
  frontageM: number;
  zone: string | null;
  ownersCount: number;
};

/** Owners of a lot: a strata lot counts as its units (at least one), any other lot as one. */
export const ownersOf = (lot: AssemblyLot): number => (lot.strata ? Math.max(1, lot.units ?? 1) : 1);
/** Metres of a lot on a street, none known counted as 0: a group's frontage is the sum of its lots'. */
export const frontageOf = (lot: AssemblyLot): number => lot.frontageM ?? 0;

function meets(t: Target, area: number, frontage: number): boolean {
  return area >= t.minAreaM2 && (t.minFrontageM === undefined || frontage >= t.minFrontageM);
}

// The zone covering most of the group (by area; ties by code), so a group over R3 and R4 says its larger part.
function mainZone(lots: readonly AssemblyLot[]): string | null {
  const by = new Map<string | null, number>();
  for (const l of lots) by.set(l.zone, (by.get(l.zone) ?? 0) + l.areaM2);
  let best: string | null = null;
  let most = -1;
  for (const [z, a] of by) if (a > most || (a === most && (z ?? "") < (best ?? ""))) [best, most] = [z, a];
  return best;
}

function compareGroups(sort: AssemblySort): (a: FoundGroup, b: FoundGroup) => number {
  const owners = (a: FoundGroup, b: FoundGroup) => a.ownersCount - b.ownersCount;
  const lots = (a: FoundGroup, b: FoundGroup) => a.lots.length - b.lots.length;
  const area = (a: FoundGroup, b: FoundGroup) => b.areaM2 - a.areaM2;
  const frontage = (a: FoundGroup, b: FoundGroup) => b.frontageM - a.frontageM;
  const chain: Record<AssemblySort, ((a: FoundGroup, b: FoundGroup) => number)[]> = {
    owners: [owners, lots, area],
    lots: [lots, owners, area],
    area: [area, owners, lots],
    frontage: [frontage, owners, area],
  };
  return (a, b) => {
    for (const c of chain[sort]) {
      const d = c(a, b);
      if (d !== 0) return d;
    }
    return a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0;
  };
}

export type GroupSearch = {
  lots: ReadonlyMap<string, AssemblyLot>;
  adjacency: Adjacency;
  target: Target;
  sort: AssemblySort;
  excludeStrata: boolean;
  packVersion: string;
  maxSetsTried?: number;
};

export type GroupsFound = {
  groups: FoundGroup[];
  candidates: number;
  setsTried: number;
  capped: boolean;
  minimal: number;
};

/**
 * Every minimal group (2 to maxLots connected candidates meeting the target, none of which can be dropped), then a
 * greedy choice in the order asked: each group is taken unless one of its lots is taken already. Greedy, not a
 * maximum matching: packing sets of three or more is NP-hard, and greedy gives each lot to the best group by the
 * caller's own order, which is what they ranked by.
 */
export function findGroups(s: GroupSearch): GroupsFound {
  const { target } = s;
  // A lot meeting the target alone is in no minimal group of two or more: dropping the others would still meet it.
  const cand = [...s.lots.values()]
    .filter((l) => l.candidate && !(s.excludeStrata && l.strata) && !meets(target, l.areaM2, frontageOf(l)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const at = new Map(cand.map((l, k) => [l.id, k]));
  const g: Graph = cand.map((l) =>
    (s.adjacency.get(l.id) ?? []).flatMap((n) => {
      const k = at.get(n.id);
      return k === undefined ? [] : [k];
    }),
  );
  const maxArea = cand.reduce((m, l) => Math.max(m, l.areaM2), 0);
  const maxFrontage = cand.reduce((m, l) => Math.max(m, frontageOf(l)), 0);
  const tried = { sets: 0, cap: s.maxSetsTried ?? MAX_SETS_TRIED };
  const found: FoundGroup[] = [];
  let capped = false;
  for (let seed = 0; seed < cand.length && !capped; seed++) {
    const finished = walkConnectedSets(g, seed, (u) => u > seed, {
      maxSize: target.maxLots,
      tried,
      visit(members) {
        let area = 0;
        let frontage = 0;
        for (const k of members) {
          area += (cand[k] as AssemblyLot).areaM2;
          frontage += frontageOf(cand[k] as AssemblyLot);
        }
        if (!meets(target, area, frontage)) {
          // Even the largest lots in every free place would fall short: no set grown from this one can meet it.
          const free = target.maxLots - members.length;
          const short =
            area + free * maxArea < target.minAreaM2 ||
            (target.minFrontageM !== undefined && frontage + free * maxFrontage < target.minFrontageM);
          return short ? "stop" : "extend";
        }
        // Meeting it: no larger set through this one is minimal, so it is never extended.
        const lots = members.map((k) => cand[k] as AssemblyLot);
        const minimal = lots.every((l) => !meets(target, area - l.areaM2, frontage - frontageOf(l)));
        if (minimal && lots.length >= 2) {
          const ids = lots.map((l) => l.id).sort();
          found.push({
            groupId: groupIdOf(ids, s.packVersion),
            lots: [...lots].sort((a, b) => (a.id < b.id ? -1 : 1)),
            areaM2: area,
            frontageM: frontage,
            zone: mainZone(lots),
            ownersCount: lots.reduce((n, l) => n + ownersOf(l), 0),
          });
        }
        return "stop";
      },
    });
    if (!finished) capped = true;
  }
  found.sort(compareGroups(s.sort));
  const taken = new Set<string>();
  const groups: FoundGroup[] = [];
  for (const grp of found) {
    if (grp.lots.some((l) => taken.has(l.id))) continue;
    for (const l of grp.lots) taken.add(l.id);
    groups.push(grp);
  }
  return { groups, candidates: cand.length, setsTried: tried.sets, capped, minimal: found.length };
}
