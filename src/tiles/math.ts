// Web Mercator tile arithmetic: which lon/lat box a z/x/y tile covers and where a point lands in it.
import type { BBox } from "../geo/bbox.ts";

export const EXTENT = 4096;
// Features are kept this far (in tile units) past each edge, so strokes and labels meet across tiles.
export const BUFFER = 64;
export const MAX_ZOOM = 22;

const lonToX = (lon: number) => (lon + 180) / 360;
/** Web Mercator y of a latitude, 0 (north) to 1 (south) over the world. */
export const latToY = (lat: number) => {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};
const xToLon = (x: number) => x * 360 - 180;
const yToLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

export type TileCoord = { z: number; x: number; y: number };

/** [west, south, east, north] of the tile grown by `buffer` tile units on every side. */
export function tileBBox({ z, x, y }: TileCoord, buffer = 0): BBox {
  const n = 2 ** z;
  const b = buffer / EXTENT;
  return [xToLon((x - b) / n), yToLat((y + 1 + b) / n), xToLon((x + 1 + b) / n), yToLat((y - b) / n)];
}

/** A tile's projection as numbers: x = ((lon + 180) / 360) * scale - ox, y = latToY(lat) * scale - oy. */
export type TileFrame = { scale: number; ox: number; oy: number };

export function tileFrame({ z, x, y }: TileCoord): TileFrame {
  return { scale: 2 ** z * EXTENT, ox: x * EXTENT, oy: y * EXTENT };
}

/** Writes a point's tile units (x, y) into `out` at `at`. */
export type Projector = (lon: number, lat: number, out: Float64Array, at: number) => void;

/** Projects lon/lat to tile units (0..EXTENT inside the tile, y down). */
export function projector({ z, x, y }: TileCoord): Projector {
  const scale = 2 ** z * EXTENT;
  const ox = x * EXTENT;
  const oy = y * EXTENT;
  return (lon, lat, out, at) => {
    out[at] = lonToX(lon) * scale - ox;
    out[at + 1] = latToY(lat) * scale - oy;
  };
}

/** The tile holding a point at zoom z (used by tests and clients to find a lot's tile). */
export function tileOf(lon: number, lat: number, z: number): TileCoord {
  const n = 2 ** z;
  return { z, x: Math.floor(lonToX(lon) * n), y: Math.floor(latToY(lat) * n) };
}

export function validTile(t: TileCoord): boolean {
  const n = 2 ** t.z;
  return (
    Number.isInteger(t.z) &&
    Number.isInteger(t.x) &&
    Number.isInteger(t.y) &&
    t.z >= 0 &&
    t.z <= MAX_ZOOM &&
    t.x >= 0 &&
    t.x < n &&
    t.y >= 0 &&
    t.y < n
  );
}
