// Connected sets of a graph, each visited once (Wernicke's ESU): the enumeration both the group search and the
// isolation test walk. The number of connected sets of k lots grows about as d^(k-1) per lot (d the lots' mean
// number of neighbours, 4 to 6 in a street block): exponential in the group size, so every walk has a cap.

/** A graph over 0..n-1 as neighbour lists. */
export type Graph = readonly (readonly number[])[];

export type Walk = {
  /** Visits a set (its members in the order added); answer "stop" to extend it no further, "halt" to end the walk. */
  visit(members: readonly number[]): "extend" | "stop" | "halt";
  maxSize: number;
  /** Sets visited so far, shared across walks so one cap bounds them all. */
  tried: { sets: number; cap: number };
  /** Zeros, at least one a lot, left zeros: walks from every seed of a large graph share it, not allocate n each. */
  scratch?: Int32Array;
};

/**
 * Walks every connected set containing `seed` whose other members are allowed (`allowed(u)`), up to `maxSize`
 * members. With `allowed = (u) => u > seed`, walks from every seed together visit each connected set exactly once.
 * Returns false when the cap or a "halt" ended it early.
 */
export function walkConnectedSets(g: Graph, seed: number, allowed: (u: number) => boolean, walk: Walk): boolean {
  // near[u] > 0: u is in the set or adjoins it (ESU's closed neighbourhood, counted so it can be undone).
  const near = walk.scratch && walk.scratch.length >= g.length ? walk.scratch : new Int32Array(g.length);
  const members: number[] = [];
  const enter = (w: number) => {
    members.push(w);
    near[w] = (near[w] as number) + 1;
    for (const u of g[w] as number[]) near[u] = (near[u] as number) + 1;
  };
  const leave = (w: number) => {
    members.pop();
    near[w] = (near[w] as number) - 1;
    for (const u of g[w] as number[]) near[u] = (near[u] as number) - 1;
  };
  let halted = false;
  const extend = (ext: number[]) => {
    if (walk.tried.sets >= walk.tried.cap) {
      halted = true;
      return;
    }
    walk.tried.sets++;
    const said = walk.visit(members);
    if (said === "halt") {
      halted = true;
      return;
    }
    if (said === "stop" || members.length >= walk.maxSize) return;
    const rest = ext.slice();
    while (rest.length > 0 && !halted) {
      const w = rest.pop() as number;
      // Newly reachable through w: its neighbours not yet in or beside the set (so no set is reached twice).
      const next = rest.slice();
      for (const u of g[w] as number[]) if (near[u] === 0 && allowed(u)) next.push(u);
      enter(w);
      extend(next);
      leave(w);
    }
  };
  enter(seed);
  extend((g[seed] as number[]).filter(allowed));
  leave(seed);
  return !halted;
}
