// Lot shape measures in metres: a local equirectangular projection, convex hull and minimum-area bounding rectangle.
import { EARTH_RADIUS_M } from "./constants.ts";
import type { LotPolygon } from "./types.ts";

type Point = [number, number];
export type Ring = Point[];
export type PolygonRings = Ring[]; // first ring outer, the rest holes

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

function toRing(v: unknown): Ring {
  if (!Array.isArray(v)) return [];
  const ring: Ring = [];
  for (const p of v) if (isPosition(p)) ring.push([p[0], p[1]]);
  return ring;
}

function toPolygon(v: unknown): PolygonRings {
  return Array.isArray(v) ? v.map(toRing).filter((r) => r.length > 0) : [];
}

// Reads rings by nesting depth rather than trusting `type`, so a mislabelled geometry still measures.
export function polygonsOf(polygon: LotPolygon): PolygonRings[] {
  const c: unknown = polygon.coordinates;
  if (!Array.isArray(c) || c.length === 0) return [];
  const first: unknown = c[0];
  const firstOfFirst: unknown = Array.isArray(first) ? first[0] : undefined;
  const isMulti = Array.isArray(firstOfFirst) && Array.isArray(firstOfFirst[0]);
  const polys = isMulti ? c.map(toPolygon) : [toPolygon(c)];
  return polys.filter((p) => p.length > 0);
}

// Projects lon/lat to metres about the centre of the bounding box of all positions.
export function projectToMetres(polys: PolygonRings[]): PolygonRings[] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const poly of polys)
    for (const ring of poly)
      for (const [x, y] of ring) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
  if (minX === Infinity) return [];
  const lon0 = (minX + maxX) / 2;
  const lat0 = (minY + maxY) / 2;
  const kx = EARTH_RADIUS_M * Math.cos(lat0 * DEG) * DEG;
  const ky = EARTH_RADIUS_M * DEG;
  return polys.map((poly) =>
    poly.map((ring) => ring.map(([x, y]): [number, number] => [(x - lon0) * kx, (y - lat0) * ky])),
  );
}

export function ringArea(ring: Ring): number {
  let s = 0;
  for (let i = 0, n = ring.length; i < n; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % n];
    if (a === undefined || b === undefined) continue;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(s) / 2;
}

export function polygonsArea(polys: PolygonRings[]): number {
  let total = 0;
  for (const poly of polys) {
    let a = 0;
    poly.forEach((ring, i) => {
      a += i === 0 ? ringArea(ring) : -ringArea(ring);
    });
    total += Math.max(0, a);
  }
  return total;
}

function cross(o: [number, number], a: [number, number], b: [number, number]): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// Andrew's monotone chain; returns the hull counter-clockwise without repeating the first point.
export function convexHull(points: [number, number][]): [number, number][] {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const lower: [number, number][] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2] as Point, lower[lower.length - 1] as Point, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: [number, number][] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i] as Point;
    while (upper.length >= 2 && cross(upper[upper.length - 2] as Point, upper[upper.length - 1] as Point, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

// Rotating calipers: the minimum-area enclosing rectangle has a side collinear with a hull edge.
export function minimumBoundingRectangle(hull: [number, number][]): { width: number; length: number; area: number } {
  const n = hull.length;
  if (n < 3) return { width: 0, length: 0, area: 0 };
  let best = { width: 0, length: 0, area: Infinity };
  for (let i = 0; i < n; i++) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % n] as Point;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    let minU = Infinity,
      maxU = -Infinity,
      minV = Infinity,
      maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy;
      const v = -p[0] * uy + p[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const w = maxU - minU;
    const h = maxV - minV;
    const area = w * h;
    // A relative tolerance keeps the choice stable between near-equal edges.
    if (area < best.area * (1 - 1e-12)) best = { width: Math.min(w, h), length: Math.max(w, h), area };
  }
  return best.area === Infinity ? { width: 0, length: 0, area: 0 } : best;
}

export function measureLot(polygon: LotPolygon): LotShape {
  const polys = projectToMetres(polygonsOf(polygon));
  const outerPoints: [number, number][] = [];
  for (const poly of polys) for (const p of poly[0] ?? []) outerPoints.push(p);
  const rect = minimumBoundingRectangle(convexHull(outerPoints));
  return { planarAreaM2: polygonsArea(polys), rectWidthM: rect.width, rectLengthM: rect.length, rectAreaM2: rect.area };
}
