// Great-circle distances in metres, metres-to-degrees at a latitude, and a point's distance to a feature.
import { pointInFeature } from "./pip.ts";
import type { Columns } from "./types.ts";

// Mean Earth radius (IUGG), the usual choice for haversine.
export const EARTH_RADIUS_M = 6371008.8;
const RAD = Math.PI / 180;

export function haversineM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

// Degrees of longitude and latitude spanned by a distance, to turn a radius into a search box.
export function degreesForMeters(m: number, lat: number): { dLon: number; dLat: number } {
  const dLat = m / (EARTH_RADIUS_M * RAD);
  const cos = Math.max(Math.cos(lat * RAD), 1e-6);
  return { dLon: dLat / cos, dLat };
}

// Distance from a point to feature i: 0 inside, else to the nearest edge in a local equirectangular frame.
export function distanceToFeatureM(c: Columns, i: number, lon: number, lat: number): number {
  if (pointInFeature(c, i, lon, lat)) return 0;
  const kx = Math.cos(lat * RAD) * EARTH_RADIUS_M * RAD;
  const ky = EARTH_RADIUS_M * RAD;
  const coords = c.coords;
  const r0 = c.polyOffsets[c.featureOffsets[i] as number] as number;
  const r1 = c.polyOffsets[c.featureOffsets[i + 1] as number] as number;
  let best = Infinity;
  for (let r = r0; r < r1; r++) {
    const v0 = c.ringOffsets[r] as number;
    const v1 = c.ringOffsets[r + 1] as number;
    let j = v1 - 1;
    for (let v = v0; v < v1; j = v++) {
      const ax = ((coords[2 * j] as number) - lon) * kx;
      const ay = ((coords[2 * j + 1] as number) - lat) * ky;
      const bx = ((coords[2 * v] as number) - lon) * kx;
      const by = ((coords[2 * v + 1] as number) - lat) * ky;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
      const px = ax + t * dx;
      const py = ay + t * dy;
      const d = Math.sqrt(px * px + py * py);
      if (d < best) best = d;
    }
  }
  return best;
}
