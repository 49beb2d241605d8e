// Which pack layers a tile carries from which zoom, and the attributes each MVT feature keeps.
import type { Layer } from "../packs/types.ts";

/** An MVT attribute value. */
export type TileValue = string | number | boolean;

// Below these zooms a layer's features are smaller than a pixel or too many to draw: left out of the tile.
const LAYER_MIN_ZOOM: Record<string, number> = {
  suburbs: 0,
  parcels: 14,
  // Bus stops every 400 m would pepper a city-wide view: they come with the lots and the streets they stand on.
  transport: 14,
  // The rail network and its stations orient a person at every zoom the lots' overview is drawn.
  lines: 0,
  stations: 10,
  // A lots pack's street blocks (its overview) from z10; streets from z13, where blocks part and the grid reads.
  blocks: 10,
  // A pack's overview without street blocks (an import, an upload) from the same zoom, as dissolved zone patches.
  zoning: 10,
  streets: 13,
};
const DEFAULT_MIN_ZOOM = 11;
// Tiles are cut up to this zoom; clients overzoom beyond it.
export const TILE_MAX_ZOOM = 16;
// Layers drawn only below the lots' zoom (the lots show each block's zones from there).
const LAYER_MAX_ZOOM: Record<string, number> = { blocks: 13 };

export function layerMinZoom(name: string): number {
  return LAYER_MIN_ZOOM[name] ?? DEFAULT_MIN_ZOOM;
}

export function layerMaxZoom(name: string): number {
  return LAYER_MAX_ZOOM[name] ?? TILE_MAX_ZOOM;
}

/** The feature's primitive properties (strings cut at 200 characters), as MVT values. */
export function tileProps(layer: Layer, i: number): Record<string, TileValue> {
  const props = layer.props(i);
  const out: Record<string, TileValue> = {};
  for (const [k, v] of Object.entries(props)) {
    if (typeof v === "string") out[k] = v.length > 200 ? v.slice(0, 200) : v;
    else if (typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) out[k] = v;
  }
  return out;
}
