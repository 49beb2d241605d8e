// Per-type checks of a ParcelGeometry's coordinates, then polygon validity: each problem located at the exact position.
import type { PointGeometry, AreaGeometry, Position } from "../geo/types.ts";
import { validityProblem } from "../geo/validity.ts";
import { formatNumber } from "../scoring/format.ts";

export type ParcelGeometryType = "Point" | "Polygon" | "MultiPolygon";
export type ParcelGeometry = PointGeometry | AreaGeometry;

/** One problem in a geometry: `path` is relative to the geometry object. */
export interface GeometryProblem {
  path: (string | number)[];
  message: string;
  /** "array" when a list was expected; other problems are value errors. */
  expected?: "array";
}

// Bounds CPU per site: a cadastre lot has tens of vertices, a generous ceiling keeps clipping cheap.
export const MAX_POSITIONS = 10_000;

const looksSwapped = (a: number, b: number) => a >= -45 && a <= -9 && b >= 110 && b <= 155;

function positionProblem(p: unknown, path: (string | number)[]): GeometryProblem | null {
  if (!Array.isArray(p)) return { path, message: "Input should be a valid list", expected: "array" };
  if (p.length < 2 || p.length > 3)
    return { path, message: "A position is [longitude, latitude] (an optional third number is the height)" };
  if (!p.every((n) => typeof n === "number" && Number.isFinite(n)))
    return { path, message: "A position holds finite numbers only" };
  const [lon, lat] = p as number[];
  if ((lon as number) < -180 || (lon as number) > 180 || (lat as number) < -90 || (lat as number) > 90) {
    const hint = looksSwapped(lon as number, lat as number)
      ? " This looks like [latitude, longitude]: GeoJSON puts longitude first."
      : "";
    return { path, message: `Longitude must be -180 to 180 and latitude -90 to 90.${hint}` };
  }
  return null;
}

function ringProblem(ring: unknown, path: (string | number)[], label: string): GeometryProblem | null {
  if (!Array.isArray(ring)) return { path, message: "Input should be a valid list", expected: "array" };
  for (let v = 0; v < ring.length; v++) {
    const bad = positionProblem(ring[v], [...path, v]);
    if (bad) return bad;
  }
  if (ring.length < 4) return { path, message: `${label} needs at least 4 positions, the first repeated as the last` };
  const first = ring[0] as number[];
  const last = ring[ring.length - 1] as number[];
  if (first[0] !== last[0] || first[1] !== last[1])
    return { path, message: `${label} is not closed: its last position must repeat the first` };
  const distinct = new Set((ring as number[][]).map((p) => `${p[0]},${p[1]}`));
  if (distinct.size < 3) return { path, message: `${label} needs at least 3 distinct positions to enclose an area` };
  return null;
}

function polygonProblem(rings: unknown, path: (string | number)[]): GeometryProblem | null {
  if (!Array.isArray(rings)) return { path, message: "Input should be a valid list", expected: "array" };
  if (rings.length === 0) return { path, message: "A polygon needs at least one ring (the outer boundary)" };
  for (let r = 0; r < rings.length; r++) {
    const bad = ringProblem(rings[r], [...path, r], r === 0 ? "The outer ring" : `Hole ${r}`);
    if (bad) return bad;
  }
  return null;
}

function countPositions(c: unknown, depth: number): number {
  if (!Array.isArray(c)) return 0;
  if (depth === 0) return c.length;
  let n = 0;
  for (const x of c) n += countPositions(x, depth - 1);
  return n;
}

/** The first problem with `coordinates` for the stated type, or null when they are well formed. */
export function coordinatesProblem(type: ParcelGeometryType, coordinates: unknown): GeometryProblem | null {
  const at = ["coordinates"];
  if (coordinates === undefined) return { path: at, message: "Field required" };
  if (type === "Point") {
    const bad = positionProblem(coordinates, at);
    return bad ? { ...bad, path: at } : null;
  }
  if (countPositions(coordinates, type === "Polygon" ? 1 : 2) > MAX_POSITIONS) {
    return { path: at, message: `A geometry may have at most ${formatNumber(MAX_POSITIONS)} positions` };
  }
  const bad = type === "Polygon" ? polygonProblem(coordinates, at) : multiPolygonProblem(coordinates, at);
  if (bad) return bad;
  // Well formed; now the shape itself: areas are only measured on valid polygons (docs/design.md section 5).
  const invalid = validityProblem(type, coordinates as Position[][] | Position[][][]);
  return invalid ? { path: [...at, ...invalid.path], message: invalid.message } : null;
}

function multiPolygonProblem(coordinates: unknown, at: (string | number)[]): GeometryProblem | null {
  if (!Array.isArray(coordinates)) return { path: at, message: "Input should be a valid list", expected: "array" };
  if (coordinates.length === 0) return { path: at, message: "A MultiPolygon needs at least one polygon" };
  for (let p = 0; p < coordinates.length; p++) {
    const bad = polygonProblem(coordinates[p], [...at, p]);
    if (bad) return bad;
  }
  return null;
}
