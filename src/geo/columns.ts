// Geometries as columns (flat coordinate arrays with ring and part offsets) and back to GeoJSON.
import type { AreaGeometry, Columns, Position } from "./types.ts";

function samePoint(a: Position, b: Position): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

// Packs many area geometries into columns; rings are stored open and rings with fewer than 3 distinct vertices are dropped.
export function columnsFromGeometries(geoms: readonly AreaGeometry[]): Columns {
  const xy: number[] = [];
  const rings: number[] = [0];
  const polys: number[] = [0];
  const feats: number[] = [0];
  for (const g of geoms) {
    const polygons = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
    const polyCountBefore = polys.length;
    for (const poly of polygons) {
      const ringCountBefore = rings.length;
      for (const ring of poly) {
        let n = ring.length;
        if (n > 1 && samePoint(ring[0] as Position, ring[n - 1] as Position)) n--;
        if (n < 3) {
          // A degenerate outer ring drops the whole polygon, holes included.
          if (rings.length === ringCountBefore) break;
          continue;
        }
        for (let i = 0; i < n; i++) {
          const p = ring[i] as Position;
          xy.push(p[0] as number, p[1] as number);
        }
        rings.push(xy.length / 2);
      }
      if (rings.length > ringCountBefore) polys.push(rings.length - 1);
    }
    if (polys.length === polyCountBefore) throw new Error("geometry has no polygon with at least 3 vertices");
    feats.push(polys.length - 1);
  }
  return {
    coords: Float64Array.from(xy),
    ringOffsets: Uint32Array.from(rings),
    polyOffsets: Uint32Array.from(polys),
    featureOffsets: Uint32Array.from(feats),
  };
}

export function columnsFromGeometry(g: AreaGeometry): Columns {
  return columnsFromGeometries([g]);
}

// Feature i back to GeoJSON with closed rings: Polygon for one part, MultiPolygon for several.
export function featureToGeometry(c: Columns, i: number): AreaGeometry {
  const polys: number[][][][] = [];
  const p0 = c.featureOffsets[i] as number;
  const p1 = c.featureOffsets[i + 1] as number;
  for (let p = p0; p < p1; p++) {
    const rings: number[][][] = [];
    const r0 = c.polyOffsets[p] as number;
    const r1 = c.polyOffsets[p + 1] as number;
    for (let r = r0; r < r1; r++) {
      const v0 = c.ringOffsets[r] as number;
      const v1 = c.ringOffsets[r + 1] as number;
      // Sized up front, not pushed: a batch row builds its lot's GeoJSON, and growing arrays is most of that.
      const ring: number[][] = new Array(v1 - v0 + 1);
      for (let v = v0; v < v1; v++) ring[v - v0] = [c.coords[2 * v] as number, c.coords[2 * v + 1] as number];
      ring[v1 - v0] = [c.coords[2 * v0] as number, c.coords[2 * v0 + 1] as number];
      rings.push(ring);
    }
    polys.push(rings);
  }
  if (polys.length === 1) return { type: "Polygon", coordinates: polys[0] as number[][][] };
  return { type: "MultiPolygon", coordinates: polys };
}

/** Calls `ring(v0, v1, outer)` for every ring of feature i in order; `outer` marks each polygon's first ring. */
export function forEachRing(c: Columns, i: number, ring: (v0: number, v1: number, outer: boolean) => void): void {
  const p0 = c.featureOffsets[i] as number;
  const p1 = c.featureOffsets[i + 1] as number;
  for (let p = p0; p < p1; p++) {
    const r0 = c.polyOffsets[p] as number;
    const r1 = c.polyOffsets[p + 1] as number;
    for (let r = r0; r < r1; r++) ring(c.ringOffsets[r] as number, c.ringOffsets[r + 1] as number, r === r0);
  }
}
