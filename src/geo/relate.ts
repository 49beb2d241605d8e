// Cheap topological pre-check before polygon clipping: most parcels lie wholly inside or wholly outside
// a zone or overlay, and clipping them exactly costs ~100x more than proving that.
import { pointInFeature } from "./pip.ts";
import type { Columns } from "./types.ts";

export type Relation = "inside" | "disjoint" | "complex";

// Sign of the turn a->b->c; zero means collinear (treated as touching, i.e. "complex").
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

// True when segments p1p2 and q1q2 cross or touch at all (including collinear contact).
function segmentsMeet(p1x: number, p1y: number, p2x: number, p2y: number, q1x: number, q1y: number, q2x: number, q2y: number): boolean {
  if (Math.max(p1x, p2x) < Math.min(q1x, q2x) || Math.max(q1x, q2x) < Math.min(p1x, p2x)) return false;
  if (Math.max(p1y, p2y) < Math.min(q1y, q2y) || Math.max(q1y, q2y) < Math.min(p1y, p2y)) return false;
  const o1 = orient(p1x, p1y, p2x, p2y, q1x, q1y);
  const o2 = orient(p1x, p1y, p2x, p2y, q2x, q2y);
  const o3 = orient(q1x, q1y, q2x, q2y, p1x, p1y);
  const o4 = orient(q1x, q1y, q2x, q2y, p2x, p2y);
  if (o1 === 0 || o2 === 0 || o3 === 0 || o4 === 0) return true;
  return o1 !== o2 && o3 !== o4;
}

function vertexRange(c: Columns, i: number): [number, number] {
  return [c.ringOffsets[c.polyOffsets[c.featureOffsets[i] as number] as number] as number, c.ringOffsets[c.polyOffsets[c.featureOffsets[i + 1] as number] as number] as number];
}

// Whether any edge of feature a meets any edge of feature b (rings are stored open).
function boundariesMeet(a: Columns, ai: number, b: Columns, bi: number): boolean {
  const ar0 = a.polyOffsets[a.featureOffsets[ai] as number] as number;
  const ar1 = a.polyOffsets[a.featureOffsets[ai + 1] as number] as number;
  const br0 = b.polyOffsets[b.featureOffsets[bi] as number] as number;
  const br1 = b.polyOffsets[b.featureOffsets[bi + 1] as number] as number;
  const ac = a.coords;
  const bc = b.coords;
  for (let ar = ar0; ar < ar1; ar++) {
    const av0 = a.ringOffsets[ar] as number;
    const av1 = a.ringOffsets[ar + 1] as number;
    for (let v = av0; v < av1; v++) {
      const w = v + 1 < av1 ? v + 1 : av0;
      const p1x = ac[2 * v] as number, p1y = ac[2 * v + 1] as number, p2x = ac[2 * w] as number, p2y = ac[2 * w + 1] as number;
      for (let br = br0; br < br1; br++) {
        const bv0 = b.ringOffsets[br] as number;
        const bv1 = b.ringOffsets[br + 1] as number;
        for (let u = bv0; u < bv1; u++) {
          const x = u + 1 < bv1 ? u + 1 : bv0;
          if (segmentsMeet(p1x, p1y, p2x, p2y, bc[2 * u] as number, bc[2 * u + 1] as number, bc[2 * x] as number, bc[2 * x + 1] as number)) return true;
        }
      }
    }
  }
  return false;
}

/**
 * How feature `si` of `subject` (a parcel) relates to feature `oi` of `other`: wholly inside it, wholly
 * apart, or anything else (crossing, touching, containing it), which needs exact clipping.
 */
export function relate(subject: Columns, si: number, other: Columns, oi: number): Relation {
  if (boundariesMeet(subject, si, other, oi)) return "complex";
  // With no boundary contact, one vertex per ring decides containment: a ring of `other` inside the
  // subject (a hole, or a whole part) means the overlap is partial.
  const or0 = other.polyOffsets[other.featureOffsets[oi] as number] as number;
  const or1 = other.polyOffsets[other.featureOffsets[oi + 1] as number] as number;
  for (let r = or0; r < or1; r++) {
    const v = other.ringOffsets[r] as number;
    if (pointInFeature(subject, si, other.coords[2 * v] as number, other.coords[2 * v + 1] as number)) return "complex";
  }
  const [s0] = vertexRange(subject, si);
  return pointInFeature(other, oi, subject.coords[2 * s0] as number, subject.coords[2 * s0 + 1] as number) ? "inside" : "disjoint";
}
