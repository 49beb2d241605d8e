// The lots layer of a v2 tile: each page's tags computed once (kept with the page, counted in the page cache's
// budget), then the pages under the tile renumbered into one dictionary in a single pass.
import { featureAreaM2 } from "../geo/area.ts";
import { featuresInBox } from "../packs/lookup.ts";
import { chargeView } from "../packs/paged/page-pack.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { polygonGeometry } from "./cut.ts";
import { emptyDictionary, grow } from "./merge.ts";
import { type TileValue, TILE_MAX_ZOOM, tileProps } from "./layers.ts";
import { BUFFER, projector, type TileCoord, tileBBox } from "./math.ts";
import { GEOM_POLYGON, type TileFeature, type TileLayer } from "./mvt.ts";

// Every feature's (key, value) pairs of one page, numbered in the page's own tables.
type PageTags = { keys: string[]; values: TileValue[]; flat: Uint32Array; starts: Uint32Array };

const pageTags = new WeakMap<Layer, PageTags>();

type ValueTables = { string: Map<TileValue, number>; number: Map<TileValue, number>; boolean: Map<TileValue, number> };
const valueTables = (): ValueTables => ({ string: new Map(), number: new Map(), boolean: new Map() });

// The attributes dictionaryOf gives a lot (tileProps, then its area from the quantised polygon), for a whole page.
function tagsOfPage(view: Pack, layer: Layer): PageTags {
  const have = pageTags.get(layer);
  if (have) return have;
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const values: TileValue[] = [];
  // One table per type, so "1" and 1 stay distinct values.
  const tables = valueTables();
  const starts = new Uint32Array(layer.count + 1);
  let flat = new Uint32Array(layer.count * 24);
  let at = 0;
  let bytes = 0;
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
        bytes += typeof v === "string" ? 2 * v.length + 32 : 16;
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
  const tags: PageTags = { keys, values, flat: flat.slice(0, at), starts };
  pageTags.set(layer, tags);
  chargeView(view, bytes + 4 * at + starts.byteLength);
  return tags;
}

/**
 * The lots of the pages under the tile as one MVT layer, byte for byte what cutting each page (tileLayers) and
 * merging the cuts (mergeLayers) gives: features in page then index order, equal values shared.
 */
export function pagedLotsLayer(views: readonly Pack[], tile: TileCoord): TileLayer | null {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const project = projector(tile);
  const tol = tile.z >= TILE_MAX_ZOOM ? 0 : 1;
  const dictionary = emptyDictionary();
  const keyIndex = new Map<string, number>();
  const tables = valueTables();
  const features: TileFeature[] = [];
  let parts = 0;
  for (const view of views) {
    const layer = view.layers.get("parcels");
    if (!layer) continue;
    const ids = featuresInBox(layer, w, s, e, n);
    if (ids.length === 0) continue;
    const pt = tagsOfPage(view, layer);
    const keyMap = new Int32Array(pt.keys.length).fill(-1);
    const valueMap = new Int32Array(pt.values.length).fill(-1);
    const before = features.length;
    for (const i of ids) {
      const geometry = polygonGeometry(layer, i, project, tol);
      if (geometry === null) continue;
      const a = pt.starts[i] as number;
      const b = pt.starts[i + 1] as number;
      // A plain array: a small typed array per feature would cost a backing store each.
      const tags: number[] = new Array(b - a);
      for (let t = a; t < b; t += 2) {
        const k = pt.flat[t] as number;
        const v = pt.flat[t + 1] as number;
        let ki = keyMap[k] as number;
        if (ki < 0) {
          const key = pt.keys[k] as string;
          ki = keyIndex.get(key) ?? -1;
          if (ki < 0) {
            ki = dictionary.keys.push(key) - 1;
            keyIndex.set(key, ki);
          }
          keyMap[k] = ki;
        }
        let vi = valueMap[v] as number;
        if (vi < 0) {
          const value = pt.values[v] as TileValue;
          const table = tables[typeof value as keyof ValueTables];
          vi = table.get(value) ?? -1;
          if (vi < 0) {
            vi = dictionary.values.push(value) - 1;
            table.set(value, vi);
          }
          valueMap[v] = vi;
        }
        tags[t - a] = ki;
        tags[t - a + 1] = vi;
      }
      features.push({ id: i, type: GEOM_POLYGON, geometry, tags });
    }
    if (features.length > before) parts++;
  }
  if (features.length === 0) return null;
  // One page's cut keeps its feature numbers; a merge of several numbers the features in order.
  if (parts > 1) for (let k = 0; k < features.length; k++) (features[k] as TileFeature).id = k;
  dictionary.keyRemap = grow(dictionary.keyRemap, dictionary.keys.length);
  dictionary.valueRemap = grow(dictionary.valueRemap, dictionary.values.length);
  return { name: "parcels", features, dictionary };
}
