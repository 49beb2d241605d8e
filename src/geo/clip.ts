// Exact overlap of a lot with layer features by convex clipping (Sutherland-Hodgman), no general polygon library.
//
// A lot is split into convex windows (itself when convex, else a signed fan of triangles); each feature
// ring is clipped to each window. Clipping a closed ring by a half-plane keeps its winding number inside
// and zeroes it outside, so |area| of a clipped ring is exactly the overlap with that ring, holes and
// concave shapes included. A Piece is the result: a signed sum of regions, which can itself be split into
// windows and intersected again (for unions by inclusion-exclusion). Two large pieces are first halved together
// until one side of each cell is small, so neither is clipped whole once per window of the other.
import { ellipsoidRadii } from "./geodesic-area.ts";
import { clipPasses, clipWork, scratch, signedAreaOf } from "./clip-pass.ts";
import { forEachRing } from "./columns.ts";
import type { Columns } from "./types.ts";

const RAD = Math.PI / 180;

// Local planar frame about a lot: x = (lon - lon0) * cos(lat0), y = lat - lat0, in degrees of latitude.
export type Frame = { lon0: number; lat0: number; kx: number; m2PerUnit: number };

export function localFrame(lon0: number, lat0: number): Frame {
  const { m, n } = ellipsoidRadii(lat0);
  return { lon0, lat0, kx: Math.cos(lat0 * RAD), m2PerUnit: m * RAD * n * RAD };
}

// Indicator of the piece = sum of weight * (region enclosed by ring); rings are flat x,y in the frame.
export type Piece = { rings: Float64Array[]; weights: number[] };

// Convex windows: indicator = sum of weight * (window); each window is half-planes a*x + b*y + c >= 0.
export type Windows = { planes: Float64Array[]; weights: number[] };

export function ringSignedArea(ring: Float64Array): number {
  return signedAreaOf(ring, ring.length >> 1);
}

export function pieceArea(p: Piece): number {
  let a = 0;
  for (let k = 0; k < p.rings.length; k++)
    a += (p.weights[k] as number) * Math.abs(ringSignedArea(p.rings[k] as Float64Array));
  return a;
}

// Half-planes of a convex ring, oriented so its interior is inside; null when the ring is not convex.
function convexPlanes(ring: Float64Array): Float64Array | null {
  // Turns are judged between distinct points: clipping leaves repeated points that would hide a reflex turn.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = 0; k < ring.length; k += 2) {
    const x = ring[k] as number;
    const y = ring[k + 1] as number;
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === x && ys[last] === y) continue;
    xs.push(x);
    ys.push(y);
  }
  while (xs.length > 1 && xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) {
    xs.pop();
    ys.pop();
  }
  const n = xs.length;
  if (n < 3) return null;
  let turn = 0;
  let total = 0;
  for (let k = 0; k < n; k++) {
    const i = (k + 1) % n;
    const j = (k + 2) % n;
    const ex = (xs[i] as number) - (xs[k] as number);
    const ey = (ys[i] as number) - (ys[k] as number);
    const fx = (xs[j] as number) - (xs[i] as number);
    const fy = (ys[j] as number) - (ys[i] as number);
    const cr = ex * fy - ey * fx;
    const dot = ex * fx + ey * fy;
    // Straight on is fine; doubling back (a clipping bridge) is not convex.
    if (cr === 0 && dot < 0) return null;
    if (cr !== 0) {
      const s = cr > 0 ? 1 : -1;
      if (turn === 0) turn = s;
      else if (s !== turn) return null;
    }
    total += Math.atan2(cr, dot);
  }
  // Turns all one way make a convex ring only if they add up to one full turn (a pentagram makes two).
  if (turn === 0 || Math.abs(total) > 3 * Math.PI) return null;
  return planesOf(ring, turn);
}

function planesOf(ring: Float64Array, orientation: number): Float64Array {
  const n = ring.length >> 1;
  const planes = new Float64Array(n * 3);
  for (let k = 0; k < n; k++) {
    const x0 = ring[2 * k] as number;
    const y0 = ring[2 * k + 1] as number;
    const i = (k + 1) % n;
    const ex = (ring[2 * i] as number) - x0;
    const ey = (ring[2 * i + 1] as number) - y0;
    planes[3 * k] = -ey * orientation;
    planes[3 * k + 1] = ex * orientation;
    planes[3 * k + 2] = (ey * x0 - ex * y0) * orientation;
  }
  return planes;
}

/** Splits a piece into convex windows: convex rings as they are, others as a signed fan of triangles. */
export function windowsOf(p: Piece): Windows {
  const planes: Float64Array[] = [];
  const weights: number[] = [];
  for (let r = 0; r < p.rings.length; r++) {
    const ring = p.rings[r] as Float64Array;
    const w = p.weights[r] as number;
    const convex = convexPlanes(ring);
    if (convex) {
      planes.push(convex);
      weights.push(w);
      continue;
    }
    // Region = orientation * winding = sum over fan triangles of orientation * (triangle sign) * triangle.
    const o = Math.sign(ringSignedArea(ring));
    if (o === 0) continue;
    const n = ring.length >> 1;
    const x0 = ring[0] as number;
    const y0 = ring[1] as number;
    for (let k = 1; k + 1 < n; k++) {
      const tri = Float64Array.of(
        x0,
        y0,
        ring[2 * k] as number,
        ring[2 * k + 1] as number,
        ring[2 * k + 2] as number,
        ring[2 * k + 3] as number,
      );
      const s = Math.sign(ringSignedArea(tri));
      if (s === 0) continue;
      planes.push(planesOf(tri, s));
      weights.push(w * o * s);
    }
  }
  return { planes, weights };
}

/** A lot (or any area) in its own frame: one ring per ring of the geometry, holes weighted -1. */
export function pieceOfColumns(c: Columns, i: number, f: Frame): Piece {
  const rings: Float64Array[] = [];
  const weights: number[] = [];
  forEachRing(c, i, (v0, v1, outer) => {
    const ring = new Float64Array((v1 - v0) * 2);
    for (let v = v0; v < v1; v++) {
      ring[2 * (v - v0)] = ((c.coords[2 * v] as number) - f.lon0) * f.kx;
      ring[2 * (v - v0) + 1] = (c.coords[2 * v + 1] as number) - f.lat0;
    }
    rings.push(ring);
    weights.push(outer ? 1 : -1);
  });
  return { rings, weights };
}

// Local-frame box [x0, y0, x1, y1] around a piece.
export type LocalBox = [number, number, number, number];

export function boxOf(p: Piece): LocalBox {
  const b: LocalBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of p.rings) {
    for (let k = 0; k < ring.length; k += 2) {
      const x = ring[k] as number;
      const y = ring[k + 1] as number;
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  }
  return b;
}

/** Feature i's rings in the frame, each clipped to the box first so long rings shrink before the windows see them. */
export function ringsInBox(c: Columns, i: number, f: Frame, box: LocalBox): Piece {
  const rings: Float64Array[] = [];
  const weights: number[] = [];
  const coords = c.coords;
  const { lon0, lat0, kx } = f;
  forEachRing(c, i, (v0, v1, outer) => {
    const n0 = v1 - v0;
    const src = scratch(n0);
    for (let v = v0, k = 0; v < v1; v++, k += 2) {
      src[k] = ((coords[2 * v] as number) - lon0) * kx;
      src[k + 1] = (coords[2 * v + 1] as number) - lat0;
    }
    const { out, n } = clipPasses(n0, [1, 0, -box[0], -1, 0, box[2], 0, 1, -box[1], 0, -1, box[3]]);
    if (n < 3) return;
    rings.push(out.slice(0, 2 * n));
    weights.push(outer ? 1 : -1);
  });
  return { rings, weights };
}

function clipToWindow(ring: Float64Array, planes: Float64Array): Float64Array | null {
  clipWork.rings++;
  const n0 = ring.length >> 1;
  scratch(n0).set(ring);
  const { out, n } = clipPasses(n0, planes);
  if (n < 3) return null;
  const kept = out.slice(0, 2 * n);
  return signedAreaOf(kept, n) === 0 ? null : kept;
}

/** The part of the windows covered by a piece whose regions are plain rings (weights are its ring roles). */
export function intersectPiece(w: Windows, other: Piece): Piece {
  const rings: Float64Array[] = [];
  const weights: number[] = [];
  for (let k = 0; k < w.planes.length; k++) {
    const planes = w.planes[k] as Float64Array;
    const wk = w.weights[k] as number;
    for (let r = 0; r < other.rings.length; r++) {
      const clipped = clipToWindow(other.rings[r] as Float64Array, planes);
      if (!clipped) continue;
      rings.push(clipped);
      weights.push(wk * (other.weights[r] as number));
    }
  }
  return { rings, weights };
}

// A side with more vertices than this is clipped by the other's windows instead of being cut into a fan of triangles.
const FAN_MAX_VERTICES = 64;

function vertexCount(p: Piece): number {
  let n = 0;
  for (const ring of p.rings) n += ring.length >> 1;
  return n;
}

/** The piece's rings clipped to the half-plane a*x + b*y + c >= 0, empty rings dropped. */
function halfOf(p: Piece, a: number, b: number, c: number): Piece {
  const rings: Float64Array[] = [];
  const weights: number[] = [];
  for (let r = 0; r < p.rings.length; r++) {
    const ring = p.rings[r] as Float64Array;
    const n0 = ring.length >> 1;
    scratch(n0).set(ring);
    const { out, n } = clipPasses(n0, [a, b, c]);
    if (n < 3 || signedAreaOf(out, n) === 0) continue;
    rings.push(out.slice(0, 2 * n));
    weights.push(p.weights[r] as number);
  }
  return { rings, weights };
}

const boxPiece = (p: Piece, box: LocalBox) =>
  halfOf(halfOf(halfOf(halfOf(p, 1, 0, -box[0]), -1, 0, box[2]), 0, 1, -box[1]), 0, -1, box[3]);

// Halvings before a cell is met as it is: each halves the box, so only a cluster finer than 2^-12 of it stops here.
const MAX_SPLIT_DEPTH = 24;

/** a & b by the smaller side's windows. */
function meetByWindows(a: Piece, b: Piece, out: Piece): void {
  const q = vertexCount(a) <= vertexCount(b) ? intersectPiece(windowsOf(a), b) : intersectPiece(windowsOf(b), a);
  out.rings.push(...q.rings);
  out.weights.push(...q.weights);
}

/**
 * a & b within `box`, both already inside it: halved along the box's longer side until a cell's sides are small.
 * A halving that does not shrink the cells (a ring winding through all of them) stops, and the windows meet it.
 */
function meetInBox(a: Piece, b: Piece, box: LocalBox, depth: number, out: Piece): void {
  const na = vertexCount(a);
  const nb = vertexCount(b);
  if (na === 0 || nb === 0) return;
  if (Math.min(na, nb) <= 16 || na * nb <= 4096 || depth >= MAX_SPLIT_DEPTH) {
    meetByWindows(a, b, out);
    return;
  }
  const [x0, y0, x1, y1] = box;
  const alongX = x1 - x0 >= y1 - y0;
  const m = alongX ? (x0 + x1) / 2 : (y0 + y1) / 2;
  const [ka, kb] = alongX ? [-1, 0] : [0, -1];
  const low = [halfOf(a, ka, kb, m), halfOf(b, ka, kb, m)] as const;
  const high = [halfOf(a, -ka, -kb, -m), halfOf(b, -ka, -kb, -m)] as const;
  const cost = (p: readonly [Piece, Piece]) => vertexCount(p[0]) * vertexCount(p[1]);
  if (cost(low) + cost(high) >= na * nb) {
    meetByWindows(a, b, out);
    return;
  }
  meetInBox(low[0], low[1], alongX ? [x0, y0, m, y1] : [x0, y0, x1, m], depth + 1, out);
  meetInBox(high[0], high[1], alongX ? [m, y0, x1, y1] : [x0, m, x1, y1], depth + 1, out);
}

/** Whether meet(a, b) cuts a into windows (else b's windows, or halving when both sides are large). */
export const windowsOfA = (a: Piece): boolean => vertexCount(a) <= FAN_MAX_VERTICES;

/**
 * a & b, each a piece of plain rings. A small side is cut into windows and the other clipped by them (a 5,000-vertex
 * lot meets a small feature through the feature's few windows). When both are large, both are cut to their common
 * box and halved together until one side of each cell is small: near-linear, where windows of either would clip
 * every vertex of the other once per window. `aWindows`, when given, are a's windows computed before.
 */
export function meet(a: Piece, b: Piece, aWindows?: Windows): Piece {
  if (windowsOfA(a)) return intersectPiece(aWindows ?? windowsOf(a), b);
  if (vertexCount(b) <= FAN_MAX_VERTICES) return intersectPiece(windowsOf(b), a);
  const ba = boxOf(a);
  const bb = boxOf(b);
  const box: LocalBox = [
    Math.max(ba[0], bb[0]),
    Math.max(ba[1], bb[1]),
    Math.min(ba[2], bb[2]),
    Math.min(ba[3], bb[3]),
  ];
  const out: Piece = { rings: [], weights: [] };
  if (box[0] >= box[2] || box[1] >= box[3]) return out;
  meetInBox(boxPiece(a, box), boxPiece(b, box), box, 0, out);
  return out;
}

/**
 * Area (frame units) of the union of pieces[i] = lot & features[i], by inclusion-exclusion with empty
 * terms pruned (their supersets are empty too); null when it would take more than maxTerms.
 */
export function unionArea(
  pieces: readonly Piece[],
  featureRings: readonly Piece[],
  eps: number,
  maxTerms = 256,
): number | null {
  let terms = 0;
  let total = 0;
  const extend = (piece: Piece, sign: number, next: number): boolean => {
    let w: Windows | undefined;
    for (let j = next; j < featureRings.length; j++) {
      if (++terms > maxTerms) return false;
      const other = featureRings[j] as Piece;
      // The piece's windows are cut once, and only when meet cuts them (it is small).
      if (!w && windowsOfA(piece)) w = windowsOf(piece);
      const q = meet(piece, other, w);
      const a = pieceArea(q);
      if (a <= eps) continue;
      total += sign * a;
      if (!extend(q, -sign, j + 1)) return false;
    }
    return true;
  };
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as Piece;
    const a = pieceArea(p);
    if (a <= eps) continue;
    total += a;
    if (!extend(p, -1, i + 1)) return null;
  }
  return total;
}

/** Frame, piece, windows and box of a lot geometry, computed once per assessment. */
export type LotClip = { frame: Frame; piece: Piece; windows: Windows; box: LocalBox; area: number };

export function lotClip(c: Columns, i: number): LotClip {
  const v0 = c.ringOffsets[c.polyOffsets[c.featureOffsets[i] as number] as number] as number;
  const frame = localFrame(c.coords[2 * v0] as number, c.coords[2 * v0 + 1] as number);
  const piece = pieceOfColumns(c, i, frame);
  return { frame, piece, windows: windowsOf(piece), box: boxOf(piece), area: pieceArea(piece) };
}
