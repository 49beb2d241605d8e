// Slippy-map tile addresses: validation, and lon/lat <-> Web Mercator tile space.
import type { BBox } from "../geo/bbox.ts";

export const MAX_Z = 22;
export const EXTENT = 4096;
export const BUFFER = 64;

export type TileAddress = { z: number; x: number; y: number };

/** z/x/y from path strings, or null when they are not integers in range. */
export function parseTile(z: string, x: string, y: string): TileAddress | null {
  if (![z, x, y].every((s) => /^\d{1,8}$/.test(s))) return null;
  const t = { z: Number(z), x: Number(x), y: Number(y) };
  if (t.z > MAX_Z) return null;
  const n = 2 ** t.z;
  return t.x < n && t.y < n ? t : null;
}

/** Longitude to world x in [0, 1]. */
export function lonToX(lon: number): number {
  return lon / 360 + 0.5;
}

/** Latitude to world y in [0, 1], north at 0. */
export function latToY(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
  return Math.min(Math.max(y, 0), 1);
}

function xToLon(x: number): number {
  return (x - 0.5) * 360;
}

function yToLat(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}

/** The tile's box in lon/lat, grown by `buffer` tile units on each side. */
export function tileBBox({ z, x, y }: TileAddress, buffer = 0): BBox {
  const n = 2 ** z;
  const b = buffer / EXTENT;
  return [xToLon((x - b) / n), yToLat((y + 1 + b) / n), xToLon((x + 1 + b) / n), yToLat((y - b) / n)];
}
