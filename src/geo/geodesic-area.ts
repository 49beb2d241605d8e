// Geodesic areas in square metres of rings, features and geometries (ellipsoidal radii at the ring's latitude).
import { featureVertexRange } from "./bbox.ts";
import { columnsFromGeometry, forEachRing } from "./columns.ts";
import type { AreaGeometry, Columns } from "./types.ts";

const RAD = Math.PI / 180;
const WGS84_A = 6378137;
const WGS84_E2 = 0.00669437999014;

// Meridional (M) and prime-vertical (N) radii of the WGS84 ellipsoid at a latitude.
export function ellipsoidRadii(lat: number): { m: number; n: number } {
  const s = Math.sin(lat * RAD);
  const w = 1 - WGS84_E2 * s * s;
  return { m: (WGS84_A * (1 - WGS84_E2)) / (w * Math.sqrt(w)), n: WGS84_A / Math.sqrt(w) };
}

// Shoelace area in m2 of one ring under a sinusoidal (equal-area) projection scaled by the ellipsoid radii at lat0.
export function ringAreaM2(coords: Float64Array, v0: number, v1: number, lat0: number): number {
  if (v1 - v0 < 3) return 0;
  const { m, n } = ellipsoidRadii(lat0);
  const kx = n * RAD;
  const ky = m * RAD;
  const lon0 = coords[2 * v0] as number;
  let sum = 0;
  const j = v1 - 1;
  let xj = ((coords[2 * j] as number) - lon0) * kx * Math.cos((coords[2 * j + 1] as number) * RAD);
  let yj = ((coords[2 * j + 1] as number) - lat0) * ky;
  for (let v = v0; v < v1; v++) {
    const lat = coords[2 * v + 1] as number;
    const x = ((coords[2 * v] as number) - lon0) * kx * Math.cos(lat * RAD);
    const y = (lat - lat0) * ky;
    sum += xj * y - x * yj;
    xj = x;
    yj = y;
  }
  return sum / 2;
}

function featureLat0(c: Columns, i: number): number {
  const [v0, v1] = featureVertexRange(c, i);
  let min = Infinity,
    max = -Infinity;
  for (let v = v0; v < v1; v++) {
    const y = c.coords[2 * v + 1] as number;
    if (y < min) min = y;
    if (y > max) max = y;
  }
  return (min + max) / 2;
}

// Area of feature i in m2: each polygon's outer ring minus its holes, whatever their winding.
export function featureAreaM2(c: Columns, i: number): number {
  const lat0 = featureLat0(c, i);
  let total = 0;
  forEachRing(c, i, (v0, v1, outer) => {
    const a = Math.abs(ringAreaM2(c.coords, v0, v1, lat0));
    total += outer ? a : -a;
  });
  return Math.max(0, total);
}

export function areaM2(g: AreaGeometry): number {
  return featureAreaM2(columnsFromGeometry(g), 0);
}
