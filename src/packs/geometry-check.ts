// The one place an uploaded polygon's validity is judged (closed rings checked by the caller), so a stricter kernel swaps in here.
import type { AreaGeometry } from "../geo/types.ts";

/** Why the polygon is not valid (self-intersection, degenerate ring), or null when it is. */
export function polygonProblem(geometry: AreaGeometry): string | null {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  for (const [p, rings] of polygons.entries()) {
    if (rings.length === 0) return `polygon ${p} has no ring`;
    for (const [r, ring] of rings.entries()) {
      const distinct = new Set(ring.map((v) => `${v[0]},${v[1]}`)).size;
      if (distinct < 3) return `ring ${r} of polygon ${p} has fewer than 3 distinct vertices`;
    }
  }
  return null;
}
