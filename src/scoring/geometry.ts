// Lot shape measures in metres: a local equirectangular projection, convex hull and minimum-area bounding rectangle.
import { EARTH_RADIUS_M } from "./constants.ts";
import { clamp, roundTo } from "./format.ts";
import type { LotPolygon, LotShapeShown } from "./types.ts";

export interface LotShape {
  planarAreaM2: number; // area of the projected polygon (outer rings minus holes)
  rectWidthM: number; // shorter side of the minimum-area bounding rectangle
  rectLengthM: number; // longer side
  rectAreaM2: number;
}

const DEG = Math.PI / 180;

function isPosition(v: unknown): v is [number, number] {
  return Array.isArray(v) && v.length >= 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]);
}

// Scratch for measureLot, grown as needed: a lot is measured without an array per vertex (scoring runs per batch row).
let rawX: Float64Array = new Float64Array(64);
let rawY: Float64Array = new Float64Array(64);
let ringEnds: Uint32Array = new Uint32Array(16);
let polyEnds: Uint32Array = new Uint32Array(8);
let order: Uint32Array = new Uint32Array(64);
let hull: Uint32Array = new Uint32Array(128);

// Scratch grown past this for an unusually large lot is dropped after it, not kept for the isolate's life.
const MAX_KEPT_VERTICES = 65_536;

function releaseScratch(): void {
  rawX = new Float64Array(64);
  rawY = new Float64Array(64);
  order = new Uint32Array(64);
  hull = new Uint32Array(128);
}

function growFloat(a: Float64Array, n: number): Float64Array {
  if (n <= a.length) return a;
  const b = new Float64Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

function growUint(a: Uint32Array, n: number): Uint32Array {
  if (n <= a.length) return a;
  const b = new Uint32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

// The lot's valid positions, flat, by nesting depth (a mislabelled type still measures): vertex, ring, polygon counts.
function collect(polygon: LotPolygon): { vertices: number; rings: number; polys: number } {
  const c: unknown = polygon.coordinates;
  let vertices = 0;
  let rings = 0;
  let polys = 0;
  if (!Array.isArray(c) || c.length === 0) return { vertices, rings, polys };
  const first: unknown = c[0];
  const firstOfFirst: unknown = Array.isArray(first) ? first[0] : undefined;
  const isMulti = Array.isArray(firstOfFirst) && Array.isArray(firstOfFirst[0]);
  const count = isMulti ? c.length : 1;
  for (let k = 0; k < count; k++) {
    const poly: unknown = isMulti ? c[k] : c;
    if (!Array.isArray(poly)) continue;
    const ringsBefore = rings;
    for (let r = 0; r < poly.length; r++) {
      const ring: unknown = poly[r];
      if (!Array.isArray(ring)) continue;
      const start = vertices;
      rawX = growFloat(rawX, vertices + ring.length);
      rawY = growFloat(rawY, vertices + ring.length);
      for (let v = 0; v < ring.length; v++) {
        const p: unknown = ring[v];
        if (!isPosition(p)) continue;
        rawX[vertices] = p[0];
        rawY[vertices] = p[1];
        vertices++;
      }
      if (vertices === start) continue;
      ringEnds = growUint(ringEnds, rings + 1);
      ringEnds[rings++] = vertices;
    }
    if (rings === ringsBefore) continue;
    polyEnds = growUint(polyEnds, polys + 1);
    polyEnds[polys++] = rings;
  }
  return { vertices, rings, polys };
}

// The shoelace area of the flat ring [v0, v1).
function flatRingArea(xs: Float64Array, ys: Float64Array, v0: number, v1: number): number {
  let s = 0;
  const n = v1 - v0;
  for (let i = 0; i < n; i++) {
    const j = v0 + ((i + 1) % n);
    s += (xs[v0 + i] as number) * (ys[j] as number) - (xs[j] as number) * (ys[v0 + i] as number);
  }
  return Math.abs(s) / 2;
}

// By x then y (Andrew's monotone chain's order); a lot's outer ring is short, so an insertion sort (stable, like Array sort).
function sortPoints(xs: Float64Array, ys: Float64Array, n: number): Uint32Array {
  if (n > 64)
    return order
      .subarray(0, n)
      .sort((a, b) => (xs[a] as number) - (xs[b] as number) || (ys[a] as number) - (ys[b] as number));
  for (let k = 1; k < n; k++) {
    const p = order[k] as number;
    const px = xs[p] as number;
    const py = ys[p] as number;
    let j = k - 1;
    for (; j >= 0; j--) {
      const q = order[j] as number;
      const d = (xs[q] as number) - px || (ys[q] as number) - py;
      if (!(d > 0)) break;
      order[j + 1] = q;
    }
    order[j + 1] = p;
  }
  return order;
}

function flatCross(xs: Float64Array, ys: Float64Array, o: number, a: number, b: number): number {
  const ox = xs[o] as number;
  const oy = ys[o] as number;
  return ((xs[a] as number) - ox) * ((ys[b] as number) - oy) - ((ys[a] as number) - oy) * ((xs[b] as number) - ox);
}

// Andrew's monotone chain, then rotating calipers (the minimum rectangle has a side on a hull edge), over `order[0..n)`.
function flatRectangle(xs: Float64Array, ys: Float64Array, n: number): { width: number; length: number; area: number } {
  if (n < 3) return { width: 0, length: 0, area: 0 };
  const pts = sortPoints(xs, ys, n);
  hull = growUint(hull, 2 * n + 2);
  let h = 0;
  for (let k = 0; k < n; k++) {
    const p = pts[k] as number;
    while (h >= 2 && flatCross(xs, ys, hull[h - 2] as number, hull[h - 1] as number, p) <= 0) h--;
    hull[h++] = p;
  }
  h--;
  const lowerEnd = h;
  for (let k = n - 1; k >= 0; k--) {
    const p = pts[k] as number;
    while (h - lowerEnd >= 2 && flatCross(xs, ys, hull[h - 2] as number, hull[h - 1] as number, p) <= 0) h--;
    hull[h++] = p;
  }
  h--;
  if (h < 3) return { width: 0, length: 0, area: 0 };
  let bestW = 0;
  let bestL = 0;
  let bestArea = Infinity;
  for (let i = 0; i < h; i++) {
    const ax = xs[hull[i] as number] as number;
    const ay = ys[hull[i] as number] as number;
    const bx = xs[hull[(i + 1) % h] as number] as number;
    const by = ys[hull[(i + 1) % h] as number] as number;
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    const ux = (bx - ax) / len;
    const uy = (by - ay) / len;
    let minU = Infinity,
      maxU = -Infinity,
      minV = Infinity,
      maxV = -Infinity;
    for (let k = 0; k < h; k++) {
      const px = xs[hull[k] as number] as number;
      const py = ys[hull[k] as number] as number;
      const u = px * ux + py * uy;
      const v = -px * uy + py * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const w = maxU - minU;
    const d = maxV - minV;
    const area = w * d;
    if (area < bestArea * (1 - 1e-12)) {
      bestW = Math.min(w, d);
      bestL = Math.max(w, d);
      bestArea = area;
    }
  }
  return bestArea === Infinity ? { width: 0, length: 0, area: 0 } : { width: bestW, length: bestL, area: bestArea };
}

/**
 * The lot projected to metres about its bbox centre (equirectangular), its area (outer rings minus holes) and the
 * minimum-area rectangle of its outer rings' hull, over flat scratch arrays (rings read by nesting depth, not `type`).
 */
export function measureLot(polygon: LotPolygon): LotShape {
  const { vertices, polys } = collect(polygon);
  if (vertices === 0) return { planarAreaM2: 0, rectWidthM: 0, rectLengthM: 0, rectAreaM2: 0 };
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let v = 0; v < vertices; v++) {
    const x = rawX[v] as number;
    const y = rawY[v] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const lon0 = (minX + maxX) / 2;
  const lat0 = (minY + maxY) / 2;
  const kx = EARTH_RADIUS_M * Math.cos(lat0 * DEG) * DEG;
  const ky = EARTH_RADIUS_M * DEG;
  // Projected in place: the raw positions are not needed again.
  const xs = rawX;
  const ys = rawY;
  for (let v = 0; v < vertices; v++) {
    xs[v] = ((xs[v] as number) - lon0) * kx;
    ys[v] = ((ys[v] as number) - lat0) * ky;
  }
  let total = 0;
  let outer = 0;
  order = growUint(order, vertices);
  let ring = 0;
  for (let p = 0; p < polys; p++) {
    let a = 0;
    const firstRing = ring;
    for (; ring < (polyEnds[p] as number); ring++) {
      const v0 = ring === 0 ? 0 : (ringEnds[ring - 1] as number);
      const v1 = ringEnds[ring] as number;
      const area = flatRingArea(xs, ys, v0, v1);
      a += ring === firstRing ? area : -area;
      if (ring === firstRing) for (let v = v0; v < v1; v++) order[outer++] = v;
    }
    total += Math.max(0, a);
  }
  const rect = flatRectangle(xs, ys, outer);
  if (rawX.length > MAX_KEPT_VERTICES) releaseScratch();
  return { planarAreaM2: total, rectWidthM: rect.width, rectLengthM: rect.length, rectAreaM2: rect.area };
}

/** The frontage and regularity a score shows for a lot: its rectangle's shorter side (0.1 m) and area ratio (0.01). */
export function shownShape(polygon: LotPolygon): LotShapeShown {
  const shape = measureLot(polygon);
  return {
    frontageM: roundTo(shape.rectWidthM, 1),
    regularity: shape.rectAreaM2 > 0 ? roundTo(clamp(shape.planarAreaM2 / shape.rectAreaM2, 0, 1), 2) : 0,
  };
}
