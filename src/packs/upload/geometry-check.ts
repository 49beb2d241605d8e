// The one place an uploaded polygon's validity is judged (closed rings checked by the caller): degenerate rings, then geo/validity.
import type { AreaGeometry, Position } from "../../geo/types.ts";
import { validityProblem } from "../../geo/validity.ts";

// Counts distinct vertices up to `enough` (a ring needs only a few), without building keys for every vertex.
function distinctVertices(ring: Position[], enough: number): number {
  const seen: Position[] = [];
  for (const v of ring) {
    if (!seen.some((s) => s[0] === v[0] && s[1] === v[1])) seen.push(v);
    if (seen.length >= enough) break;
  }
  return seen.length;
}

/** Why the polygon is not valid (self-intersection, degenerate ring), or null when it is. */
export function polygonProblem(geometry: AreaGeometry): string | null {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  for (const [p, rings] of polygons.entries()) {
    if (rings.length === 0) return `polygon ${p} has no ring`;
    for (const [r, ring] of rings.entries()) {
      if (distinctVertices(ring, 3) < 3) return `ring ${r} of polygon ${p} has fewer than 3 distinct vertices`;
    }
  }
  // Self-intersections, spikes, holes outside their shell, overlapping parts: the kernel report/ uses too.
  return validityProblem(geometry.type, geometry.coordinates)?.message ?? null;
}
