// A layer's attribute dictionary, built as tiles are cut: each key and value numbered once per isolate,
// each feature's tags kept as pairs of those numbers, so a tile's encoder only renumbers integers.
import { featureAreaM2 } from "../geo/geodesic-area.ts";
import type { Layer } from "../packs/types.ts";
import { type TileValue, tileProps } from "./layers.ts";

export type Dictionary = {
  keys: string[];
  values: TileValue[];
  // Scratch for one tile's renumbering: -1 where a key or value is not yet in the tile (reset after use).
  keyRemap: Int32Array;
  valueRemap: Int32Array;
  tagsOf(i: number): Uint32Array;
};

const dictionaries = new WeakMap<Layer, Dictionary>();

export function dictionaryOf(layer: Layer): Dictionary {
  const found = dictionaries.get(layer);
  if (found) return found;
  const keyIndex = new Map<string, number>();
  // One table per type, so "1" and 1 stay distinct values.
  const byType = {
    string: new Map<TileValue, number>(),
    number: new Map<TileValue, number>(),
    boolean: new Map<TileValue, number>(),
  };
  const tags: (Uint32Array | undefined)[] = new Array(layer.count);
  const dict: Dictionary = {
    keys: [],
    values: [],
    keyRemap: new Int32Array(16).fill(-1),
    valueRemap: new Int32Array(1024).fill(-1),
    tagsOf(i) {
      const cached = tags[i];
      if (cached) return cached;
      const props = tileProps(layer, i);
      if (layer.name === "parcels") props.area_m2 = Math.round(featureAreaM2(layer, i));
      const entries = Object.entries(props);
      const out = new Uint32Array(entries.length * 2);
      entries.forEach(([k, v], j) => {
        let ki = keyIndex.get(k);
        if (ki === undefined) {
          ki = dict.keys.push(k) - 1;
          keyIndex.set(k, ki);
        }
        const table = byType[typeof v as "string" | "number" | "boolean"];
        let vi = table.get(v);
        if (vi === undefined) {
          vi = dict.values.push(v) - 1;
          table.set(v, vi);
        }
        out[2 * j] = ki;
        out[2 * j + 1] = vi;
      });
      if (dict.keyRemap.length < dict.keys.length) dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
      if (dict.valueRemap.length < dict.values.length) dict.valueRemap = grow(dict.valueRemap, dict.values.length);
      // A v2 page's view lives in the page cache, whose budget counts the page, not its tiles' tags.
      if (layer.record === undefined) tags[i] = out;
      return out;
    },
  };
  dictionaries.set(layer, dict);
  return dict;
}

function grow(a: Int32Array, atLeast: number): Int32Array {
  const b = new Int32Array(Math.max(atLeast, a.length * 2)).fill(-1);
  b.set(a);
  return b;
}
