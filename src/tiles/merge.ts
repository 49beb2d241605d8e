// One MVT layer per name when a tile is cut from several packs of one source (the pages of a v2 pack):
// features keep their order, their tags renumbered into one dictionary.
import type { Dictionary } from "./dictionary.ts";
import type { TileValue } from "./layers.ts";
import type { TileLayer } from "./mvt.ts";

/** A dictionary filled by hand (merged or generated layers); tagsOf is not used for them. */
export function emptyDictionary(): Dictionary {
  return {
    keys: [],
    values: [],
    keyRemap: new Int32Array(16).fill(-1),
    valueRemap: new Int32Array(1024).fill(-1),
    tagsOf: () => new Uint32Array(0),
  };
}

/** The scratch remap grown to cover `atLeast` entries (filled with -1). */
export function grow(a: Int32Array, atLeast: number): Int32Array {
  if (a.length >= atLeast) return a;
  const b = new Int32Array(Math.max(atLeast, a.length * 2)).fill(-1);
  b.set(a);
  return b;
}

function merge(name: string, parts: readonly TileLayer[]): TileLayer {
  const dict = emptyDictionary();
  const keyIndex = new Map<string, number>();
  // One table per type, so "1" and 1 stay distinct values.
  const byType = {
    string: new Map<TileValue, number>(),
    number: new Map<TileValue, number>(),
    boolean: new Map<TileValue, number>(),
  };
  const features: TileLayer["features"] = [];
  for (const part of parts) {
    for (const f of part.features) {
      const tags = new Uint32Array(f.tags.length);
      for (let j = 0; j < f.tags.length; j += 2) {
        const k = part.dictionary.keys[f.tags[j] as number] as string;
        const v = part.dictionary.values[f.tags[j + 1] as number] as TileValue;
        let ki = keyIndex.get(k);
        if (ki === undefined) ki = keyIndex.set(k, dict.keys.push(k) - 1).get(k) as number;
        const table = byType[typeof v as "string" | "number" | "boolean"];
        let vi = table.get(v);
        if (vi === undefined) {
          vi = dict.values.push(v) - 1;
          table.set(v, vi);
        }
        tags[j] = ki;
        tags[j + 1] = vi;
      }
      features.push({ ...f, id: features.length, tags });
    }
  }
  dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
  dict.valueRemap = grow(dict.valueRemap, dict.values.length);
  return { name, features, dictionary: dict };
}

/** The layers of several cuts, one per name; a name cut once is kept as it is. */
export function mergeLayers(cuts: readonly TileLayer[][]): TileLayer[] {
  const byName = new Map<string, TileLayer[]>();
  for (const layers of cuts) {
    for (const l of layers) {
      if (l.features.length === 0) continue;
      const list = byName.get(l.name);
      if (list) list.push(l);
      else byName.set(l.name, [l]);
    }
  }
  return [...byName].map(([name, parts]) => (parts.length === 1 ? (parts[0] as TileLayer) : merge(name, parts)));
}
