// Point-in-polygon tests (even-odd rule, holes included) over rings, features and geometries.
import { columnsFromGeometry } from "./columns.ts";
import type { AreaGeometry, Columns } from "./types.ts";

// Even-odd crossing test of one open ring (vertices v0..v1-1, closed implicitly).
export function pointInRing(coords: Float64Array, v0: number, v1: number, x: number, y: number): boolean {
  let inside = false;
  let xj = coords[2 * v1 - 2] as number;
  let yj = coords[2 * v1 - 1] as number;
  for (let v = v0; v < v1; v++) {
    const xi = coords[2 * v] as number;
    const yi = coords[2 * v + 1] as number;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    xj = xi;
    yj = yi;
  }
  return inside;
}

/**
 * pointInRing over a ring stored as fixed-point integers (x, y pairs at q[a..b)), each divided by `units` as read:
 * the same doubles a decoder dividing the same integers holds, so the answer is bit-for-bit pointInRing's.
 */
export function pointInFixedRing(q: Int32Array, a: number, b: number, units: number, x: number, y: number): boolean {
  let inside = false;
  let xj = (q[b - 2] as number) / units;
  let yj = (q[b - 1] as number) / units;
  for (let v = a; v < b; v += 2) {
    const xi = (q[v] as number) / units;
    const yi = (q[v + 1] as number) / units;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    xj = xi;
    yj = yi;
  }
  return inside;
}

// Even-odd over every ring of feature i, so holes and multi-part features need no special case.
export function pointInFeature(c: Columns, i: number, x: number, y: number): boolean {
  const ringOffsets = c.ringOffsets;
  const r0 = c.polyOffsets[c.featureOffsets[i] as number] as number;
  const r1 = c.polyOffsets[c.featureOffsets[i + 1] as number] as number;
  let inside = false;
  for (let r = r0; r < r1; r++) {
    if (pointInRing(c.coords, ringOffsets[r] as number, ringOffsets[r + 1] as number, x, y)) inside = !inside;
  }
  return inside;
}

export function pointInPolygon(g: AreaGeometry, lon: number, lat: number): boolean {
  return pointInFeature(columnsFromGeometry(g), 0, lon, lat);
}
