// A circle around a point as a polygon, for "within 800 m of Central station" as a search area.
import { degreesForMeters } from "./distance.ts";
import type { PolygonGeometry } from "./types.ts";

/** Vertices on the circle: a chord's midpoint is then within 0.12% of the radius (1 m at 800 m). */
export const CIRCLE_VERTICES = 64;

export function circlePolygon(lon: number, lat: number, radiusM: number, n = CIRCLE_VERTICES): PolygonGeometry {
  const { dLon, dLat } = degreesForMeters(radiusM, lat);
  const ring: [number, number][] = [];
  // Anticlockwise from east, closed, as GeoJSON's right-hand rule has an outer ring.
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    ring.push([lon + dLon * Math.cos(a), lat + dLat * Math.sin(a)]);
  }
  ring.push(ring[0] as [number, number]);
  return { type: "Polygon", coordinates: [ring] };
}
