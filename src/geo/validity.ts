// Validity of GeoJSON Polygon / MultiPolygon rings: simple, non-degenerate rings, holes inside their shell, parts apart.
import { orient, segmentsMeet } from "./segments.ts";
import { sweep } from "./sweep.ts";
import type { Position } from "./types.ts";

export { segmentsMeet };

/** One validity problem: `path` indexes into the geometry's `coordinates` (ring, or part for overlaps). */
export interface ValidityProblem {
  path: number[];
  message: string;
}

interface Ring {
  path: number[];
  label: string;
  part: number;
  hole: boolean;
  xs: Float64Array;
  ys: Float64Array;
  /** Index in the input ring of each kept vertex (consecutive repeats dropped). */
  at: number[];
}

// Vertex i of a ring, and edge i from vertex i to the next (wrapping to the first).
const vx = (r: Ring, i: number): [number, number] => [r.xs[i] as number, r.ys[i] as number];
const edge = (r: Ring, i: number): [number, number, number, number] => [...vx(r, i), ...vx(r, (i + 1) % r.xs.length)];
const round = (n: number) => Number(n.toFixed(6));
const near = (x: number, y: number) => `[${round(x)}, ${round(y)}]`;

function toRing(positions: Position[], path: number[], label: string, part: number, hole: boolean): Ring {
  const xs: number[] = [];
  const ys: number[] = [];
  const at: number[] = [];
  // The closing position repeats the first (checked upstream), so it is left out; repeats are not edges.
  for (let i = 0; i < positions.length - 1; i++) {
    const x = positions[i]?.[0] as number;
    const y = positions[i]?.[1] as number;
    if (xs.length > 0 && xs[xs.length - 1] === x && ys[ys.length - 1] === y) continue;
    xs.push(x);
    ys.push(y);
    at.push(i);
  }
  while (xs.length > 1 && xs[xs.length - 1] === xs[0] && ys[ys.length - 1] === ys[0]) {
    xs.pop();
    ys.pop();
    at.pop();
  }
  return { path, label, part, hole, xs: Float64Array.from(xs), ys: Float64Array.from(ys), at };
}

// True when every vertex lies on one line (or fewer than 3 distinct vertices): the ring encloses nothing.
function collinear(r: Ring): boolean {
  const n = r.xs.length;
  if (n < 3) return true;
  const ax = r.xs[0] as number;
  const ay = r.ys[0] as number;
  const bx = r.xs[1] as number;
  const by = r.ys[1] as number;
  for (let i = 2; i < n; i++) if (orient(ax, ay, bx, by, r.xs[i] as number, r.ys[i] as number) !== 0) return false;
  return true;
}

// A vertex where the boundary turns straight back along itself (a zero-width spike), or null.
function spikeAt(r: Ring): number | null {
  const n = r.xs.length;
  for (let i = 0; i < n; i++) {
    const p = (i + n - 1) % n;
    const q = (i + 1) % n;
    const [ax, ay] = vx(r, p);
    const [bx, by] = vx(r, i);
    const [cx, cy] = vx(r, q);
    if (orient(ax, ay, bx, by, cx, cy) !== 0) continue;
    // Collinear: it doubles back when both neighbours lie on the same side of the vertex (signs are exact).
    if (Math.sign(ax - bx) * Math.sign(cx - bx) > 0 || Math.sign(ay - by) * Math.sign(cy - by) > 0) return i;
  }
  return null;
}

function rings(type: "Polygon" | "MultiPolygon", coordinates: Position[][] | Position[][][]): Ring[] {
  const multi = type === "MultiPolygon";
  const polygons = (multi ? coordinates : [coordinates]) as Position[][][];
  const out: Ring[] = [];
  polygons.forEach((poly, p) => {
    const of = multi ? ` of polygon ${p + 1}` : "";
    poly.forEach((ring, r) => {
      const label = r === 0 ? `The outer ring${of}` : `Hole ${r}${of}`;
      out.push(toRing(ring, multi ? [p, r] : [r], label, p, r > 0));
    });
  });
  return out;
}

function edgeProblem(a: Ring, ai: number, b: Ring, bi: number, x: number, y: number): ValidityProblem {
  const where = `near ${near(x, y)}`;
  if (a === b) {
    const [i, j] = [a.at[ai], a.at[bi]];
    return {
      path: a.path,
      message: `${a.label} crosses or touches itself ${where} (edges from positions ${i} and ${j}): a parcel boundary must not self-intersect`,
    };
  }
  if (a.part !== b.part)
    return {
      path: [b.part],
      message: `Polygons ${a.part + 1} and ${b.part + 1} overlap or touch ${where}: the parts of a MultiPolygon must be apart`,
    };
  const lower = (l: string) => l.charAt(0).toLowerCase() + l.slice(1);
  return {
    path: b.path,
    message: `${b.label} crosses or touches ${lower(a.label)} ${where}: a hole must lie inside the outer ring without meeting it or another hole`,
  };
}

// Any two edges that meet other than consecutive edges at their shared vertex, found by one O(n log n) sweep; else the nesting.
function crossingProblem(all: Ring[], counter: ValidityStats): ValidityProblem | Int32Array {
  const start = new Uint32Array(all.length + 1);
  all.forEach((r, k) => {
    start[k + 1] = (start[k] as number) + r.xs.length;
  });
  const total = start[all.length] as number;
  const xs = new Float64Array(total);
  const ys = new Float64Array(total);
  all.forEach((r, k) => {
    xs.set(r.xs, start[k]);
    ys.set(r.ys, start[k]);
  });
  const result = sweep({ xs, ys, start }, counter);
  if ("parent" in result) return result.parent;
  // Edge ids back to (ring, edge): the lower id first, as the message names the earlier ring first.
  const locate = (e: number): [Ring, number] => {
    let k = 0;
    while ((start[k + 1] as number) <= e) k++;
    return [all[k] as Ring, e - (start[k] as number)];
  };
  const [ra, i] = locate(result.meet[0]);
  const [rb, j] = locate(result.meet[1]);
  const meet = segmentsMeet(...edge(ra, i), ...edge(rb, j)) as [number, number];
  return edgeProblem(ra, i, rb, j, meet[0], meet[1]);
}

// The old per-ring rule, given the rings that contain ring r (its ancestors, by index): holes in their shell, none in another hole, no part inside another.
function ringContainmentProblem(r: Ring, around: Ring[], shellOf: Map<number, Ring>): ValidityProblem | null {
  if (r.hole) {
    if (!around.includes(shellOf.get(r.part) as Ring))
      return { path: r.path, message: `${r.label} lies outside the outer ring: a hole must be inside the parcel` };
    const outer = around.find((o) => o.hole && o.part === r.part);
    if (outer)
      return { path: r.path, message: `${r.label} lies inside ${outer.label.toLowerCase()}: holes must not overlap` };
    return null;
  }
  for (const o of around) {
    if (o.hole || o.part === r.part) continue;
    // Inside another part's shell is an overlap unless it sits in one of that part's holes (an island in a lake).
    if (!around.some((h) => h.hole && h.part === o.part))
      return {
        path: [r.part],
        message: `Polygon ${r.part + 1} lies inside polygon ${o.part + 1}: the parts of a MultiPolygon must not overlap`,
      };
  }
  return null;
}

// With no rings meeting, containment is the nesting tree: one walk down it with per-part counts finds the first ring in
// trouble in linear time, and only that ring's ancestors are listed for its message.
function containmentProblem(all: Ring[], parent: Int32Array): ValidityProblem | null {
  const shellOf = new Map<number, Ring>();
  for (const r of all) if (!r.hole) shellOf.set(r.part, r);
  const parts = all.reduce((m, r) => Math.max(m, r.part + 1), 0);
  const shellOn = new Uint8Array(parts);
  const holesOn = new Uint32Array(parts);
  // Parts whose shell is an ancestor with none of their holes: a shell below one of them lies inside that part.
  let open = 0;
  const kids: number[][] = all.map(() => []);
  const roots: number[] = [];
  parent.forEach((p, k) => {
    (p === -1 ? roots : (kids[p] as number[])).push(k);
  });
  let worst = all.length;
  const enter = (k: number, sign: 1 | -1) => {
    const r = all[k] as Ring;
    const p = r.part;
    if (!r.hole) {
      shellOn[p] = sign > 0 ? 1 : 0;
      if (holesOn[p] === 0) open += sign;
      return;
    }
    if (sign < 0) holesOn[p] = (holesOn[p] as number) - 1;
    if (holesOn[p] === 0 && shellOn[p]) open -= sign;
    if (sign > 0) holesOn[p] = (holesOn[p] as number) + 1;
  };
  // Iterative depth-first walk: a node is visited (judged against its ancestors, then entered), later left.
  const stack: number[] = roots.map((k) => ~k).reverse();
  while (stack.length > 0) {
    const top = stack.pop() as number;
    if (top >= 0) {
      enter(top, -1);
      continue;
    }
    const k = ~top;
    const r = all[k] as Ring;
    const bad = r.hole ? !shellOn[r.part] || (holesOn[r.part] as number) > 0 : open > 0;
    if (bad && k < worst) worst = k;
    enter(k, 1);
    stack.push(k);
    for (const c of kids[k] as number[]) stack.push(~c);
  }
  if (worst === all.length) return null;
  const above: number[] = [];
  for (let p = parent[worst] as number; p !== -1; p = parent[p] as number) above.push(p);
  const around = above.sort((a, b) => a - b).map((k) => all[k] as Ring);
  return ringContainmentProblem(all[worst] as Ring, around, shellOf);
}

/** Work done by validityProblem: pairs of edges compared (sweep order and exact segment tests). */
export interface ValidityStats {
  edgePairs: number;
}

/** The first validity problem of well-formed (closed, finite) Polygon or MultiPolygon coordinates, or null. */
export function validityProblem(
  type: "Polygon" | "MultiPolygon",
  coordinates: Position[][] | Position[][][],
  stats: ValidityStats = { edgePairs: 0 },
): ValidityProblem | null {
  const all = rings(type, coordinates);
  for (const r of all) {
    if (collinear(r)) return { path: r.path, message: `${r.label} encloses no area: its positions lie on one line` };
    const s = spikeAt(r);
    if (s !== null)
      return {
        path: r.path,
        message: `${r.label} doubles back on itself at ${near(r.xs[s] as number, r.ys[s] as number)} (position ${r.at[s]}): a parcel boundary must not run out and back along one line`,
      };
  }
  const crossing = crossingProblem(all, stats);
  return crossing instanceof Int32Array ? containmentProblem(all, crossing) : crossing;
}
