// Shamos-Hoey sweep over every ring's edges at once, O(n log n): a pair of edges that meet (other than neighbours at
// their shared vertex), or, when there is none, the ring that directly encloses each ring.
import { orient, segmentsMeet } from "./segments.ts";
import { SweepTree } from "./sweep-tree.ts";

/** Rings with no consecutive repeats, at least 3 vertices, not all on one line and no spikes (checked first). */
export interface SweepRings {
  xs: Float64Array;
  ys: Float64Array;
  /** Ring k holds vertices start[k] to start[k + 1] - 1; edge v runs from vertex v to the next one of its ring. */
  start: Uint32Array;
}

/** Work done: every pair of edges compared, in the status order or by the exact segment test. */
export interface SweepCounter {
  edgePairs: number;
}

/** `meet`: two edges (by first vertex, lower first) that meet; `parent`: each ring's innermost enclosing ring or -1. */
export type SweepResult = { meet: [number, number] } | { parent: Int32Array };

export function sweep({ xs, ys, start }: SweepRings, counter: SweepCounter): SweepResult {
  const n = xs.length;
  const rings = start.length - 1;
  const X = (v: number) => xs[v] as number;
  const Y = (v: number) => ys[v] as number;
  const ringOf = new Uint32Array(n);
  for (let k = 0; k < rings; k++) ringOf.fill(k, start[k], start[k + 1]);
  const first = (v: number) => start[ringOf[v] as number] as number;
  const end = (v: number) => start[(ringOf[v] as number) + 1] as number;
  const next = (v: number) => (v + 1 === end(v) ? first(v) : v + 1);
  const prev = (v: number) => (v === first(v) ? end(v) - 1 : v - 1);
  // The sweep visits points by x, then y: a vertical edge is swept bottom to top like a slightly tilted one.
  const byXY = (a: number, b: number) => (X(a) < X(b) ? -1 : X(a) > X(b) ? 1 : Y(a) < Y(b) ? -1 : Y(a) > Y(b) ? 1 : 0);
  const leftIsStart = new Uint8Array(n);
  for (let e = 0; e < n; e++) leftIsStart[e] = byXY(e, next(e)) < 0 ? 1 : 0;
  const L = (e: number) => (leftIsStart[e] ? e : next(e));
  const R = (e: number) => (leftIsStart[e] ? next(e) : e);

  const order = new Uint32Array(n);
  for (let v = 0; v < n; v++) order[v] = v;
  order.sort((a, b) => byXY(a, b) || a - b);
  // Two vertices at one point (consecutive repeats were dropped) touch: the edges leaving them meet there.
  for (let k = 1; k < n; k++)
    if (byXY(order[k - 1] as number, order[k] as number) === 0)
      return { meet: [order[k - 1] as number, order[k] as number] };

  const meets = (a: number, b: number) => {
    if (next(a) === b || next(b) === a) return false;
    counter.edgePairs++;
    return segmentsMeet(X(a), Y(a), X(next(a)), Y(next(a)), X(b), Y(b), X(next(b)), Y(next(b))) !== null;
  };
  const found = (a: number, b: number): SweepResult => ({ meet: a < b ? [a, b] : [b, a] });
  const tree = new SweepTree(n);
  const parent = new Int32Array(rings).fill(-1);
  const ccw = new Uint8Array(rings);
  const seen = new Uint8Array(rings);

  // The edge being inserted leaves vertex v towards vertex far; one comparison closure serves every insertion.
  let v = 0;
  let far = 0;
  const below = (t: number) => {
    counter.edgePairs++;
    const tl = L(t);
    const tr = R(t);
    // t also leaves v (its ring neighbour): the far ends decide. Else v on t goes above t, and its touch is tested next.
    const p = tl === v ? far : v;
    return orient(X(tl), Y(tl), X(tr), Y(tr), X(p), Y(p)) < 0;
  };
  const leave = (e: number) => {
    const a = tree.prev(e);
    const b = tree.next(e);
    tree.remove(e);
    return a !== -1 && b !== -1 && meets(a, b) ? found(a, b) : null;
  };
  const enter = (e: number) => {
    far = R(e);
    tree.insert(e, below);
    const a = tree.prev(e);
    const b = tree.next(e);
    const ring = ringOf[v] as number;
    if (!seen[ring]) {
      // v is the ring's first point swept, a convex corner: its turn gives the winding, the edge below it the nesting.
      seen[ring] = 1;
      ccw[ring] = orient(X(prev(v)), Y(prev(v)), X(v), Y(v), X(next(v)), Y(next(v))) > 0 ? 1 : 0;
      if (a !== -1) {
        const s = ringOf[a] as number;
        // v sits above edge a: inside a's ring when that ring's interior lies on a's upper side.
        parent[ring] = leftIsStart[a] === ccw[s] ? s : (parent[s] as number);
      }
    }
    if (a !== -1 && meets(e, a)) return found(e, a);
    return b !== -1 && meets(e, b) ? found(e, b) : null;
  };

  for (let k = 0; k < n; k++) {
    v = order[k] as number;
    const before = prev(v);
    // Edges ending here leave first: their neighbours become adjacent and are tested.
    const met =
      (R(before) === v ? leave(before) : null) ??
      (R(v) === v ? leave(v) : null) ??
      (L(before) === v ? enter(before) : null) ??
      (L(v) === v ? enter(v) : null);
    if (met) return met;
  }
  return { parent };
}
