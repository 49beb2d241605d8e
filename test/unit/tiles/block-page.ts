// Street blocks drawn by hand in a tile's units, as a pack's block overview page holds them (degrees).
import type { BlockPage } from "../../../src/packs/paged/index.ts";
import { type TileCoord, tileFrame } from "../../../src/tiles/math.ts";

// Tile units to degrees (the inverse of the tile's Web Mercator projection).
export function degrees(t: TileCoord, x: number, y: number): [number, number] {
  const f = tileFrame(t);
  const lon = ((f.ox + x) / f.scale) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (f.oy + y)) / f.scale))) * 180) / Math.PI;
  return [lon, lat];
}

/** Axis-aligned blocks given in tile units [x0, y0, x1, y1] of `tile` with their zone's code, as one block page. */
export function blockPage(
  tile: TileCoord,
  blocks: { box: [number, number, number, number]; zone: number }[],
): BlockPage {
  const n = blocks.length;
  const coords = new Float64Array(8 * n);
  blocks.forEach(({ box: [x0, y0, x1, y1] }, i) => {
    [
      [x0, y1],
      [x1, y1],
      [x1, y0],
      [x0, y0],
    ].forEach(([x, y], k) => {
      coords.set(degrees(tile, x as number, y as number), 8 * i + 2 * k);
    });
  });
  const geometry = {
    coords,
    ringOffsets: Uint32Array.from({ length: n + 1 }, (_, i) => 4 * i),
    polyOffsets: Uint32Array.from({ length: n + 1 }, (_, i) => i),
    featureOffsets: Uint32Array.from({ length: n + 1 }, (_, i) => i),
  };
  return { no: 0, count: n, geometry, zones: Uint16Array.from(blocks.map((b) => b.zone)), bytes: 0 };
}
