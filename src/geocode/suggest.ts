// Search-as-you-type: suburbs by name prefix, word prefix or a near miss ("Paramatta"), a lot by its id or address.
import type { Layer, Pack } from "../packs/types.ts";
import { parcelByLot } from "../packs/spatial.ts";
import { normaliseLotId } from "../packs/lot-id.ts";
import { findAddresses } from "./address-index.ts";
import type { Suggestion } from "./suggestion.ts";
import { normaliseName, SUBURBS, suburbResult } from "./gazetteer.ts";
import {
  buildNameIndex,
  laterWordMatches,
  lowerBound,
  MAX_SCORED,
  type NameIndex,
  nearCandidates,
  type SearchWork,
} from "./name-index.ts";

export type { Suggestion };

const indexes = new WeakMap<Layer, NameIndex>();

// Built once per loaded layer: a pack reloaded (new version or etag) is a new Layer and gets its own.
function indexOf(layer: Layer): NameIndex {
  let index = indexes.get(layer);
  if (index) return index;
  const pairs: [string, number][] = [];
  for (let i = 0; i < layer.count; i++) {
    const name = layer.props(i).name;
    if (typeof name === "string") pairs.push([normaliseName(name), i]);
  }
  index = buildNameIndex(pairs);
  indexes.set(layer, index);
  return index;
}

const row = new Int32Array(64);
const prev = new Int32Array(64);
const prev2 = new Int32Array(64);

/** Optimal-string-alignment distance of `a` to the start of `b` (what has been typed so far), capped at max+1. */
export function prefixDistance(a: string, b: string, max: number): number {
  const n = Math.min(a.length, 62);
  // Compare with the same number of characters of b, give or take the allowed edits.
  let best = max + 1;
  const m = Math.min(b.length, n + max, 62);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2.set(prev.subarray(0, m + 1));
    prev.set(row.subarray(0, m + 1));
  }
  // Whole-name typos and prefix typos both count: the best of b's prefixes around a's length.
  for (let j = Math.max(0, n - max); j <= m; j++) best = Math.min(best, prev[j] as number);
  return best;
}

/**
 * Up to `limit` suggestions: a lot first when the query is a lot id, then lots by address when it starts with a
 * house number, then suburbs: exact, prefix, word-prefix, near misses. Near misses are scored by edit distance
 * on at most MAX_SCORED names per layer (counted in `work`).
 */
export function suggest(
  packs: readonly Pack[],
  query: string,
  limit: number,
  work: SearchWork = { scored: 0 },
): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (s: Suggestion) => {
    const key = `${s.kind}:${s.pack_id}:${s.lot_id ?? s.name}:${s.state ?? ""}`;
    if (out.length < limit && !seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
  };
  if (normaliseLotId(query) !== null) {
    const lot = parcelByLot(packs, query);
    if (lot) {
      const address = typeof lot.props.address === "string" ? lot.props.address : null;
      add({
        kind: "lot",
        name: address ?? lot.lotId ?? query,
        state: null,
        bbox: lot.bbox,
        center: lot.centroid,
        sal_code: null,
        pack_id: lot.packId,
        lot_id: lot.lotId,
      });
    }
  }
  for (const lot of findAddresses(packs, query, limit)) add(lot);
  const q = normaliseName(query);
  if (q.length === 0) return out;
  const layers = packs.flatMap((p) => {
    const layer = p.layers.get(SUBURBS);
    return layer?.kind === "polygon" ? [{ pack: p, layer, index: indexOf(layer) }] : [];
  });
  const suburb = (pack: Pack, layer: Layer, i: number): Suggestion => ({
    ...suburbResult(pack, layer, i),
    kind: "suburb",
    lot_id: null,
  });
  // Prefix matches, shortest name first ("Parramatta" before "Parramatta Park"), then alphabetical.
  const prefixed: { pack: Pack; layer: Layer; i: number; key: string }[] = [];
  for (const { pack, layer, index } of layers) {
    for (let k = lowerBound(index.keys, q); k < index.keys.length; k++) {
      const key = index.keys[k] as string;
      if (!key.startsWith(q)) break;
      prefixed.push({ pack, layer, i: index.rows[k] as number, key });
      if (prefixed.length >= limit * 4) break;
    }
  }
  prefixed.sort((a, b) => a.key.length - b.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const p of prefixed) add(suburb(p.pack, p.layer, p.i));
  if (out.length >= limit) return out;
  // A later word of the name ("Hills" finds "Baulkham Hills"), then near misses by edit distance.
  const max = q.length <= 3 ? 0 : q.length <= 6 ? 1 : 2;
  const near: { pack: Pack; layer: Layer; i: number; d: number; key: string }[] = [];
  for (const { pack, layer, index } of layers) {
    const words = new Set(laterWordMatches(index, q).filter((k) => !(index.keys[k] as string).startsWith(q)));
    for (const k of words) near.push({ pack, layer, i: index.rows[k] as number, d: 0, key: index.keys[k] as string });
    if (max === 0) continue;
    const taken = (k: number) => words.has(k) || (index.keys[k] as string).startsWith(q);
    for (const k of nearCandidates(index, q, max, MAX_SCORED, taken)) {
      const key = index.keys[k] as string;
      work.scored++;
      const d = prefixDistance(q, key, max);
      if (d <= max) near.push({ pack, layer, i: index.rows[k] as number, d, key });
    }
  }
  near.sort((a, b) => a.d - b.d || a.key.length - b.key.length || (a.key < b.key ? -1 : 1));
  for (const n of near) add(suburb(n.pack, n.layer, n.i));
  return out;
}
