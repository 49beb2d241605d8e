// Validity of GeoJSON Polygon / MultiPolygon rings: simple, non-degenerate rings, holes inside their shell, parts apart.
import Flatbush from "flatbush";
import { orient2d } from "robust-predicates";
import type { Position } from "./types.ts";

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

// Exact orientation of c against the directed line a->b: > 0 left, < 0 right, 0 on the line (y up).
// robust-predicates' orient2d is positive for clockwise in y-up axes (counterclockwise in y-down), hence the minus.
const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  -Math.sign(orient2d(ax, ay, bx, by, cx, cy));

// Vertex i of a ring, and edge i from vertex i to the next (wrapping to the first).
const vx = (r: Ring, i: number): [number, number] => [r.xs[i] as number, r.ys[i] as number];
const edge = (r: Ring, i: number): [number, number, number, number] => [...vx(r, i), ...vx(r, (i + 1) % r.xs.length)];
const boxOf = ([ax, ay, bx, by]: [number, number, number, number]): [number, number, number, number] => [
  Math.min(ax, bx),
  Math.min(ay, by),
  Math.max(ax, bx),
  Math.max(ay, by),
];

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

const within = (a: number, b: number, c: number) => (a <= c && c <= b) || (b <= c && c <= a);

/** Where segments ab and cd meet (touching and collinear overlap included), or null when they are apart. */
export function segmentsMeet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): [number, number] | null {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    // A proper crossing: the point is only for the message, so floating arithmetic is enough.
    const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / ((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
    return [ax + t * (bx - ax), ay + t * (by - ay)];
  }
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    within(px, qx, rx) && within(py, qy, ry);
  if (o1 === 0 && on(ax, ay, bx, by, cx, cy)) return [cx, cy];
  if (o2 === 0 && on(ax, ay, bx, by, dx, dy)) return [dx, dy];
  if (o3 === 0 && on(cx, cy, dx, dy, ax, ay)) return [ax, ay];
  if (o4 === 0 && on(cx, cy, dx, dy, bx, by)) return [bx, by];
  return null;
}

/** Even-odd test of a point known not to lie on the ring's boundary, with exact orientation. */
function insideRing(r: Ring, px: number, py: number): boolean {
  let inside = false;
  const n = r.xs.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ay = r.ys[j] as number;
    const by = r.ys[i] as number;
    if (ay > py === by > py) continue;
    // The rightward ray crosses an upward edge with the point on its left, a downward edge with it on its right.
    if (orient(r.xs[j] as number, ay, r.xs[i] as number, by, px, py) * Math.sign(by - ay) > 0) inside = !inside;
  }
  return inside;
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

// Any two edges that meet other than consecutive edges at their shared vertex; edges indexed so each only meets its neighbours.
function crossingProblem(all: Ring[]): ValidityProblem | null {
  let total = 0;
  for (const r of all) total += r.xs.length;
  const ringOf = new Uint32Array(total);
  const startOf = new Uint32Array(all.length);
  const index = new Flatbush(total);
  let e = 0;
  all.forEach((r, k) => {
    startOf[k] = e;
    for (let i = 0; i < r.xs.length; i++, e++) {
      ringOf[e] = k;
      index.add(...boxOf(edge(r, i)));
    }
  });
  index.finish();
  for (let k = 0; k < total; k++) {
    const ra = all[ringOf[k] as number] as Ring;
    const na = ra.xs.length;
    const i = k - (startOf[ringOf[k] as number] as number);
    const a = edge(ra, i);
    const hits = index.search(...boxOf(a));
    hits.sort((m, n) => m - n);
    for (const h of hits) {
      if (h <= k) continue;
      const rb = all[ringOf[h] as number] as Ring;
      const j = h - (startOf[ringOf[h] as number] as number);
      // Consecutive edges share a vertex by design; their doubling back is the spike check's.
      if (ra === rb && (j === i + 1 || (i === 0 && j === na - 1))) continue;
      const meet = segmentsMeet(...a, ...edge(rb, j));
      if (meet) return edgeProblem(ra, i, rb, j, meet[0], meet[1]);
    }
  }
  return null;
}

// With no rings meeting, containment is decided by one vertex of each ring: holes in their shell, none in another hole, no part inside another.
function containmentProblem(all: Ring[]): ValidityProblem | null {
  const boxes = new Flatbush(all.length);
  for (const r of all) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < r.xs.length; i++) {
      x0 = Math.min(x0, r.xs[i] as number);
      x1 = Math.max(x1, r.xs[i] as number);
      y0 = Math.min(y0, r.ys[i] as number);
      y1 = Math.max(y1, r.ys[i] as number);
    }
    boxes.add(x0, y0, x1, y1);
  }
  boxes.finish();
  const shellOf = new Map<number, Ring>();
  for (const r of all) if (!r.hole) shellOf.set(r.part, r);
  for (const r of all) {
    const px = r.xs[0] as number;
    const py = r.ys[0] as number;
    const around = boxes
      .search(px, py, px, py)
      .sort((a, b) => a - b)
      .map((k) => all[k] as Ring)
      .filter((o) => o !== r && insideRing(o, px, py));
    if (r.hole) {
      if (!around.includes(shellOf.get(r.part) as Ring))
        return {
          path: r.path,
          message: `${r.label} lies outside the outer ring: a hole must be inside the parcel`,
        };
      const outer = around.find((o) => o.hole && o.part === r.part);
      if (outer)
        return { path: r.path, message: `${r.label} lies inside ${outer.label.toLowerCase()}: holes must not overlap` };
      continue;
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
  }
  return null;
}

/** The first validity problem of well-formed (closed, finite) Polygon or MultiPolygon coordinates, or null. */
export function validityProblem(
  type: "Polygon" | "MultiPolygon",
  coordinates: Position[][] | Position[][][],
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
  return crossingProblem(all) ?? containmentProblem(all);
}
