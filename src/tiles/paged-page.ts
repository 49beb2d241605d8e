// What a v2 page keeps for its tiles (with the page, counted in the page cache's budget): each lot's tags numbered
// in the page's own tables with every key and value already MVT-encoded, and every vertex's Mercator y.
import { PbfWriter as Pbf } from "pbf";
import { featureAreaM2 } from "../geo/geodesic-area.ts";
import { chargeView } from "../packs/paged/index.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { type TileValue, tileProps } from "./layers.ts";
import { latToY } from "./math.ts";
import { writeValue } from "./mvt.ts";

export type PageTags = {
  keys: string[];
  values: TileValue[];
  // Feature i's (key, value) pairs are flat[starts[i] .. starts[i + 1]).
  flat: Uint32Array;
  starts: Uint32Array;
  // Key k's layer field (tag, length, UTF-8) is keyBytes[keyAt[k] .. keyAt[k + 1]); values likewise.
  keyBytes: Uint8Array;
  keyAt: Uint32Array;
  valueBytes: Uint8Array;
  valueAt: Uint32Array;
  // FNV-1a of each value's bytes: equal bytes are an equal value (the type is in the field number).
  valueHash: Uint32Array;
};

type ValueTables = {
  string: Map<TileValue, number>;
  number: Map<TileValue, number>;
  boolean: Map<TileValue, number>;
};

const pageTags = new WeakMap<Layer, PageTags>();
const pageMercY = new WeakMap<Layer, Float64Array>();

// Each item's field as encodeTile writes it, one after another, with where each starts.
function encoded<T>(items: readonly T[], write: (item: T, pbf: Pbf) => void): { bytes: Uint8Array; at: Uint32Array } {
  const pbf = new Pbf();
  const at = new Uint32Array(items.length + 1);
  for (let k = 0; k < items.length; k++) {
    write(items[k] as T, pbf);
    at[k + 1] = pbf.pos;
  }
  return { bytes: pbf.finish().slice(), at };
}

/** The attributes dictionaryOf gives each lot of the page (tileProps, then its area from the quantised polygon). */
export function tagsOfPage(view: Pack, layer: Layer): PageTags {
  const have = pageTags.get(layer);
  if (have) return have;
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const values: TileValue[] = [];
  // One table per type, so "1" and 1 stay distinct values.
  const tables: ValueTables = { string: new Map(), number: new Map(), boolean: new Map() };
  const starts = new Uint32Array(layer.count + 1);
  let flat = new Uint32Array(layer.count * 24);
  let at = 0;
  for (let i = 0; i < layer.count; i++) {
    const props = tileProps(layer, i);
    props.area_m2 = Math.round(featureAreaM2(layer, i));
    for (const k in props) {
      const v = props[k] as TileValue;
      let ki = keyIndex.get(k);
      if (ki === undefined) {
        ki = keys.push(k) - 1;
        keyIndex.set(k, ki);
      }
      const table = tables[typeof v as keyof ValueTables];
      let vi = table.get(v);
      if (vi === undefined) {
        vi = values.push(v) - 1;
        table.set(v, vi);
      }
      if (at + 2 > flat.length) {
        const bigger = new Uint32Array(flat.length * 2 + 16);
        bigger.set(flat);
        flat = bigger;
      }
      flat[at++] = ki;
      flat[at++] = vi;
    }
    starts[i + 1] = at;
  }
  const k = encoded(keys, (key, pbf) => pbf.writeStringField(3, key));
  const v = encoded(values, (value, pbf) => pbf.writeMessage(4, writeValue, value));
  const valueHash = new Uint32Array(values.length);
  for (let j = 0; j < values.length; j++) {
    let h = 0x811c9dc5;
    for (let x = v.at[j] as number; x < (v.at[j + 1] as number); x++)
      h = Math.imul(h ^ (v.bytes[x] as number), 0x01000193);
    valueHash[j] = h >>> 0;
  }
  const tags: PageTags = {
    keys,
    values,
    flat: flat.slice(0, at),
    starts,
    keyBytes: k.bytes,
    keyAt: k.at,
    valueBytes: v.bytes,
    valueAt: v.at,
    valueHash,
  };
  pageTags.set(layer, tags);
  // The value objects (about 16 bytes each, strings twice their length) and the typed arrays.
  let objects = 0;
  for (const x of values) objects += typeof x === "string" ? 2 * x.length + 32 : 16;
  const arrays = [tags.flat, starts, k.bytes, k.at, v.bytes, v.at, valueHash].reduce((s, a) => s + a.byteLength, 0);
  chargeView(view, objects + arrays);
  return tags;
}

/** latToY of every vertex of the page: a tile then projects with a multiply, not a logarithm. */
export function mercatorYOfPage(view: Pack, layer: Layer): Float64Array {
  const have = pageMercY.get(layer);
  if (have) return have;
  const n = layer.coords.length >> 1;
  const ys = new Float64Array(n);
  for (let v = 0; v < n; v++) ys[v] = latToY(layer.coords[2 * v + 1] as number);
  pageMercY.set(layer, ys);
  chargeView(view, ys.byteLength);
  return ys;
}
