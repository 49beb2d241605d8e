// Lots by street address: a parcels layer's `address` values as sorted keys, so a typed address is a prefix search.
import { featureBBox } from "../geo/bbox.ts";
import { featureCentroid } from "../geo/centroid.ts";
import { lowerBound } from "./name-index.ts";
import { PARCELS } from "../packs/spatial.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { addressKey, addressPrefixes, keyFits, startsWithHouseNumber } from "./address-key.ts";
import type { Suggestion } from "./suggestion.ts";

/** Keys read per layer and prefix, at most: a query like "2" never walks every address starting with 2. */
export const MAX_ADDRESS_SCAN = 64;

export interface AddressIndex {
  /** addressKey of each address, sorted. */
  keys: string[];
  /** The layer row of each key. */
  rows: Int32Array;
}

const indexes = new WeakMap<Layer, AddressIndex>();
const EMPTY: AddressIndex = { keys: [], rows: new Int32Array(0) };

/** The address index of a parcels layer, built once per loaded layer (a reloaded pack is a new Layer). */
export function addressIndexOf(layer: Layer): AddressIndex {
  let index = indexes.get(layer);
  if (index) return index;
  if (!layer.fields.includes("address")) return EMPTY;
  const pairs: [string, number][] = [];
  for (let i = 0; i < layer.count; i++) {
    const a = layer.props(i).address;
    if (typeof a === "string" && a.length > 0) pairs.push([addressKey(a), i]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  index = { keys: pairs.map((p) => p[0]), rows: Int32Array.from(pairs, (p) => p[1]) };
  indexes.set(layer, index);
  return index;
}

type Match = { pack: Pack; layer: Layer; row: number; key: string };

function lotSuggestion({ pack, layer, row }: Match): Suggestion {
  const props = layer.props(row);
  return {
    kind: "lot",
    name: String(props.address),
    state: null,
    bbox: featureBBox(layer, row),
    center: featureCentroid(layer, row),
    sal_code: null,
    pack_id: pack.id,
    lot_id: typeof props.lot_id === "string" ? props.lot_id : null,
  };
}

/**
 * Lots whose address the query is the start of, best first (shortest key, then alphabetical, then pack order);
 * nothing unless the query starts with a house number. At most MAX_ADDRESS_SCAN keys are read per layer and prefix.
 */
export function findAddresses(packs: readonly Pack[], query: string, limit: number): Suggestion[] {
  if (!startsWithHouseNumber(query)) return [];
  const prefixes = addressPrefixes(query);
  const matches: Match[] = [];
  for (const pack of packs) {
    const layer = pack.layers.get(PARCELS);
    if (layer?.kind !== "polygon") continue;
    const { keys, rows } = addressIndexOf(layer);
    const taken = new Set<number>();
    for (const p of prefixes) {
      const end = Math.min(keys.length, lowerBound(keys, p.prefix) + MAX_ADDRESS_SCAN);
      for (let k = lowerBound(keys, p.prefix); k < end; k++) {
        const key = keys[k] as string;
        if (!key.startsWith(p.prefix)) break;
        if (taken.has(k) || !keyFits(key, p)) continue;
        taken.add(k);
        matches.push({ pack, layer, row: rows[k] as number, key });
      }
    }
  }
  // Array.prototype.sort is stable: equal keys keep pack order (private packs first).
  matches.sort((a, b) => a.key.length - b.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return matches.slice(0, limit).map(lotSuggestion);
}
