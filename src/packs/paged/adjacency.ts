// Which lots adjoin (docs/design.md section 14): two lots are neighbours when they share at least 2 m of boundary. The
// one measure both an assembly at query time (src/assemble/adjacency.ts) and a lots pack's build (neighbours.ts) use.
//
// Lots across a street are never neighbours: the road reserve between them is not a lot, so their facing edges lie
// a reserve's width apart (6 m and more), far outside the 0.3 m tolerance. The street side of a lot is therefore its
// boundary shared with no lot; its length on the street is the pack's `frontage_m` (geo/street-frontage.ts).
import Flatbush from "flatbush";
import { EARTH_RADIUS_M } from "../../geo/distance.ts";
import { mergeIntervals } from "../../geo/intervals.ts";

/** A ring of [lon, lat] positions (closed or not). */
type Ring = readonly (readonly [number, number])[];

/** The least shared boundary that makes two lots neighbours (a corner touch or a splay is not adjoining). */
export const MIN_SHARED_M = 2;
// Edges are shared when the other's ends lie within 0.3 m of this one's line (surveys and 1 cm quantising disagree).
const ON_LINE_M = 0.3;
// ... and they run within 5° of each other.
const PARALLEL_SIN = Math.sin((5 * Math.PI) / 180);
const M_PER_DEG = (EARTH_RADIUS_M * Math.PI) / 180;

/** [west, south, east, north]. */
export type Box = [number, number, number, number];

/** An outline's box (non-finite when it has no position). */
export function outlineBox(rings: readonly Ring[]): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings)
    for (const [x, y] of ring) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  return b;
}

// Two reusable edge buffers: a build compares millions of pairs, and a fresh array per pair was its largest cost.
let edgesA: Float64Array = new Float64Array(256);
let edgesB: Float64Array = new Float64Array(256);

// Each ring's edges in metres, in a plane about (lon0, lat0), written to `into` as [ax, ay, bx, by] per edge (grown
// when short); returns the buffer and how many numbers it holds.
function edgesM(rings: readonly Ring[], lon0: number, lat0: number, into: Float64Array): [Float64Array, number] {
  const kx = Math.cos((lat0 * Math.PI) / 180) * M_PER_DEG;
  let vertices = 0;
  for (const ring of rings) vertices += ring.length;
  let out = into;
  if (out.length < 4 * vertices) out = new Float64Array(Math.max(2 * out.length, 4 * vertices));
  let k = 0;
  for (const ring of rings) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const p = ring[i] as readonly [number, number];
      const q = ring[(i + 1) % n] as readonly [number, number];
      if (p[0] === q[0] && p[1] === q[1]) continue;
      out[k++] = (p[0] - lon0) * kx;
      out[k++] = (p[1] - lat0) * M_PER_DEG;
      out[k++] = (q[0] - lon0) * kx;
      out[k++] = (q[1] - lat0) * M_PER_DEG;
    }
  }
  return [out, k];
}

/** Metres of boundary two lots share: each edge of `a` counts the stretches of `b`'s edges lying along it, once. */
export function sharedLengthM(a: readonly Ring[], b: readonly Ring[]): number {
  const first = a[0]?.[0];
  if (!first) return 0;
  const [ea, na] = edgesM(a, first[0], first[1], edgesA);
  edgesA = ea;
  const [eb, nb] = edgesM(b, first[0], first[1], edgesB);
  edgesB = eb;
  let total = 0;
  for (let i = 0; i < na; i += 4) {
    const ax = ea[i] as number;
    const ay = ea[i + 1] as number;
    const dx = (ea[i + 2] as number) - ax;
    const dy = (ea[i + 3] as number) - ay;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const ux = dx / len;
    const uy = dy / len;
    // Most edges lie along nothing of `b`: their list is made only when one does.
    let along: [number, number][] | null = null;
    for (let j = 0; j < nb; j += 4) {
      const px = (eb[j] as number) - ax;
      const py = (eb[j + 1] as number) - ay;
      const qx = (eb[j + 2] as number) - ax;
      const qy = (eb[j + 3] as number) - ay;
      // Offsets across this edge's line, and positions along it.
      const tp = px * uy - py * ux;
      const tq = qx * uy - qy * ux;
      if (Math.abs(tp) > ON_LINE_M || Math.abs(tq) > ON_LINE_M) continue;
      const sp = px * ux + py * uy;
      const sq = qx * ux + qy * uy;
      const el = Math.hypot(qx - px, qy - py);
      if (el === 0 || Math.abs(tq - tp) > el * PARALLEL_SIN) continue;
      const from = Math.max(0, Math.min(sp, sq));
      const to = Math.min(len, Math.max(sp, sq));
      if (!(to > from)) continue;
      if (along) along.push([from, to]);
      else along = [[from, to]];
    }
    if (along === null) continue;
    if (along.length === 1) total += (along[0] as [number, number])[1] - (along[0] as [number, number])[0];
    else for (const [s, e] of mergeIntervals(along)) total += e - s;
  }
  return total;
}

// Which of two outlines is measured along: the one whose first vertex comes first (west, then south), so a pair's
// shared length is the same whichever order the lots arrive in (the build's pack order or a query's reading order).
function firstOf(a: readonly Ring[], b: readonly Ring[]): boolean {
  const p = a[0]?.[0];
  const q = b[0]?.[0];
  if (!p || !q) return true;
  return p[0] < q[0] || (p[0] === q[0] && p[1] <= q[1]);
}

/** Metres two outlines share, measured along the one whose first vertex comes first, whichever is given first. */
export function pairSharedM(a: readonly Ring[], b: readonly Ring[]): number {
  return firstOf(a, b) ? sharedLengthM(a, b) : sharedLengthM(b, a);
}

const PAD_LAT = ON_LINE_M / M_PER_DEG;

/** The box other lots' boxes must meet to be compared with a lot of box `b`: `b` grown by the tolerance. */
export function nearBox(b: Box): Box {
  const padLon = PAD_LAT / Math.max(1e-6, Math.cos((b[1] * Math.PI) / 180));
  return [b[0] - padLon, b[1] - PAD_LAT, b[2] + padLon, b[3] + PAD_LAT];
}

/** Whether box `b` meets box `a` (edges touching count, as a flatbush search counts them). */
export const boxesMeet = (a: Box, b: Box): boolean => b[0] <= a[2] && b[1] <= a[3] && b[2] >= a[0] && b[3] >= a[1];

/** More lots than this whose boxes reach a lot's: stacked or overlapping lots, whose adjacency is not measured. */
export const MAX_NEAR = 400;

/**
 * Every adjoining pair among `count` outlines (`ringsAt(i)`), each handed to `onPair(i, j, sharedM)` once with i < j.
 * A flatbush of the boxes gives each lot the few lots whose boxes come within the tolerance, so the work is
 * O(n log n) in lots (times the vertices of each pair). The one path for adjacency at query time and at build time.
 */
export function adjacentPairs(
  count: number,
  ringsAt: (i: number) => readonly Ring[],
  onPair: (i: number, j: number, sharedM: number) => void,
  // Only the pairs it accepts are compared (an assembly measures the pairs no pack's column holds).
  compare?: (i: number, j: number) => boolean,
): number {
  if (count === 0) return 0;
  const boxes = new Float64Array(4 * count);
  const index = new Flatbush(count);
  for (let i = 0; i < count; i++) {
    const b = outlineBox(ringsAt(i));
    boxes.set(b, 4 * i);
    index.add(b[0], b[1], b[2], b[3]);
  }
  index.finish();
  let pairsCompared = 0;
  for (let i = 0; i < count; i++) {
    const b: Box = [
      boxes[4 * i] as number,
      boxes[4 * i + 1] as number,
      boxes[4 * i + 2] as number,
      boxes[4 * i + 3] as number,
    ];
    if (!Number.isFinite(b[0])) continue;
    const [w, s, e, n] = nearBox(b);
    const near = index.search(w, s, e, n);
    // Lots stacked on one spot (an upload of copies) are no block of a cadastre: no neighbours, never a quadratic build.
    if (near.length > MAX_NEAR) continue;
    const rings = ringsAt(i);
    for (const j of near) {
      if (j <= i || (compare && !compare(i, j))) continue;
      pairsCompared++;
      const m = pairSharedM(rings, ringsAt(j));
      if (m >= MIN_SHARED_M) onPair(i, j, m);
    }
  }
  return pairsCompared;
}
