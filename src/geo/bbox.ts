// Bounding boxes [west, south, east, north] of vertex ranges and features, and box tests.
import type { AreaGeometry, Columns } from "./types.ts";

export type BBox = [west: number, south: number, east: number, north: number];

// Vertex range of feature i in columns.
export function featureVertexRange(c: Columns, i: number): [number, number] {
  const r0 = c.polyOffsets[c.featureOffsets[i] as number] as number;
  const r1 = c.polyOffsets[c.featureOffsets[i + 1] as number] as number;
  return [c.ringOffsets[r0] as number, c.ringOffsets[r1] as number];
}

export function bboxOfRange(coords: Float64Array, v0: number, v1: number): BBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let v = v0; v < v1; v++) {
    const x = coords[2 * v] as number;
    const y = coords[2 * v + 1] as number;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export function featureBBox(c: Columns, i: number): BBox {
  const [v0, v1] = featureVertexRange(c, i);
  return bboxOfRange(c.coords, v0, v1);
}

export function bboxContains(b: BBox, lon: number, lat: number): boolean {
  return lon >= b[0] && lon <= b[2] && lat >= b[1] && lat <= b[3];
}

export function bboxIntersects(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

/** The box of a GeoJSON polygon or multipolygon's vertices. */
export function areaBBox(g: AreaGeometry): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of g.type === "Polygon" ? [g.coordinates] : g.coordinates)
    for (const ring of poly)
      for (const [x, y] of ring as [number, number][]) {
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.max(b[2], x);
        b[3] = Math.max(b[3], y);
      }
  return b;
}
