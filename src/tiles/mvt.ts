// A Mapbox Vector Tile 2.1 writer over `pbf`: layers of features already in tile units, keys and values shared per layer.
import { PbfWriter as Pbf } from "pbf";
import type { Dictionary } from "./dictionary.ts";
import type { TileValue } from "./layers.ts";
import { EXTENT } from "./math.ts";

export const GEOM_POINT = 1;
/** MVT's zigzag encoding of a signed coordinate delta (specification 4.3.2). */
export const zigzag = (v: number): number => (v << 1) ^ (v >> 31);
export const GEOM_LINESTRING = 2;
export const GEOM_POLYGON = 3;

export type TileFeature = {
  id: number;
  type: typeof GEOM_POINT | typeof GEOM_LINESTRING | typeof GEOM_POLYGON;
  // MVT geometry commands, already encoded (MoveTo/LineTo, and ClosePath for polygons, zigzag deltas in tile units).
  geometry: number[];
  // Pairs of (key, value) numbers in the layer's dictionary.
  tags: ArrayLike<number>;
};

export type TileLayer = { name: string; features: TileFeature[]; dictionary: Dictionary };

export function writeValue(v: TileValue, pbf: Pbf): void {
  if (typeof v === "string") pbf.writeStringField(1, v);
  else if (typeof v === "boolean") pbf.writeBooleanField(7, v);
  else if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER)
    v >= 0 ? pbf.writeVarintField(5, v) : pbf.writeSVarintField(6, v);
  else pbf.writeDoubleField(3, v);
}

function writeLayer(layer: TileLayer, pbf: Pbf): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  const { keys, values, keyRemap, valueRemap } = layer.dictionary;
  // The tile's own numbering, in order of first use; the scratch remaps are reset before returning.
  const usedKeys: number[] = [];
  const usedValues: number[] = [];
  for (const f of layer.features) {
    const tags: number[] = new Array(f.tags.length);
    for (let t = 0; t < f.tags.length; t += 2) {
      const k = f.tags[t] as number;
      const v = f.tags[t + 1] as number;
      if (keyRemap[k] === -1) keyRemap[k] = usedKeys.push(k) - 1;
      if (valueRemap[v] === -1) valueRemap[v] = usedValues.push(v) - 1;
      tags[t] = keyRemap[k] as number;
      tags[t + 1] = valueRemap[v] as number;
    }
    pbf.writeMessage(2, writeFeature, { f, tags });
  }
  for (const k of usedKeys) {
    pbf.writeStringField(3, keys[k] as string);
    keyRemap[k] = -1;
  }
  for (const v of usedValues) {
    pbf.writeMessage(4, writeValue, values[v] as TileValue);
    valueRemap[v] = -1;
  }
  pbf.writeVarintField(5, EXTENT);
}

function writeFeature({ f, tags }: { f: TileFeature; tags: number[] }, pbf: Pbf): void {
  pbf.writeVarintField(1, f.id);
  if (tags.length > 0) pbf.writePackedVarint(2, tags);
  pbf.writeVarintField(3, f.type);
  pbf.writePackedVarint(4, f.geometry);
}

/** Encodes the layers that hold features; an empty result means the tile holds nothing. */
export function encodeTile(layers: readonly TileLayer[]): Uint8Array {
  const pbf = new Pbf();
  for (const layer of layers) if (layer.features.length > 0) pbf.writeMessage(3, writeLayer, layer);
  return pbf.finish();
}
