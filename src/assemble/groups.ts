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

// What groups are ordered by; the id is asked for only when everything else ties (hashing every group costs).
type Ranked = { ownersCount: number; size: number; areaM2: number; frontageM: number };

function compareGroups<T extends Ranked>(sort: AssemblySort, idOf: (g: T) => string): (a: T, b: T) => number {
  const owners = (a: T, b: T) => a.ownersCount - b.ownersCount;
  const lots = (a: T, b: T) => a.size - b.size;
  const area = (a: T, b: T) => b.areaM2 - a.areaM2;
  const frontage = (a: T, b: T) => b.frontageM - a.frontageM;
  const chain: Record<AssemblySort, ((a: T, b: T) => number)[]> = {
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
    const x = idOf(a);
    const y = idOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

// A minimal group as the walk finds it: its candidates by index ascending (so by id), and its id once asked for.
type Minimal = Ranked & { members: number[]; id: string | null };

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
  const found: Minimal[] = [];
  let capped = false;
  const scratch = new Int32Array(cand.length);
  const order = new Int32Array(target.maxLots);
  for (let seed = 0; seed < cand.length && !capped; seed++) {
    const finished = walkConnectedSets(g, seed, (u) => u > seed, {
      maxSize: target.maxLots,
      tried,
      scratch,
      visit(members) {
        // Summed in one order (candidates by id) whatever path reached the set: floating sums of the same lots in
        // another order differ in the last bit, which would order equal groups, and so choose them, by the path.
        const n = members.length;
        for (let i = 0; i < n; i++) {
          const k = members[i] as number;
          let j = i;
          for (; j > 0 && (order[j - 1] as number) > k; j--) order[j] = order[j - 1] as number;
          order[j] = k;
        }
        let area = 0;
        let frontage = 0;
        for (let i = 0; i < n; i++) {
          const l = cand[order[i] as number] as AssemblyLot;
          area += l.areaM2;
          frontage += frontageOf(l);
        }
        if (!meets(target, area, frontage)) {
          // Even the largest lots in every free place would fall short: no set grown from this one can meet it.
          const free = target.maxLots - n;
          const short =
            area + free * maxArea < target.minAreaM2 ||
            (target.minFrontageM !== undefined && frontage + free * maxFrontage < target.minFrontageM);
          return short ? "stop" : "extend";
        }
        // Meeting it: no larger set through this one is minimal, so it is never extended.
        const sorted = Array.from(order.subarray(0, n));
        const minimal = sorted.every((k) => {
          const l = cand[k] as AssemblyLot;
          return !meets(target, area - l.areaM2, frontage - frontageOf(l));
        });
        if (minimal && n >= 2) {
          const ownersCount = sorted.reduce((o, k) => o + ownersOf(cand[k] as AssemblyLot), 0);
          found.push({ members: sorted, size: n, areaM2: area, frontageM: frontage, ownersCount, id: null });
        }
        return "stop";
      },
    });
    if (!finished) capped = true;
  }
  const idOf = (m: Minimal) => {
    m.id ??= groupIdOf(
      m.members.map((k) => (cand[k] as AssemblyLot).id),
      s.packVersion,
    );
    return m.id;
  };
  found.sort(compareGroups(s.sort, idOf));
  const taken = new Uint8Array(cand.length);
  const groups: FoundGroup[] = [];
  for (const m of found) {
    if (m.members.some((k) => taken[k] === 1)) continue;
    for (const k of m.members) taken[k] = 1;
    const lots = m.members.map((k) => cand[k] as AssemblyLot);
    groups.push({
      groupId: idOf(m),
      lots,
      areaM2: m.areaM2,
      frontageM: m.frontageM,
      zone: mainZone(lots),
      ownersCount: m.ownersCount,
    });
  }
  return { groups, candidates: cand.length, setsTried: tried.sets, capped, minimal: found.length };
}
