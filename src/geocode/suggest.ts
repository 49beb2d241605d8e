// Search-as-you-type: suburbs by prefix (of the name or of a later word) then near misses, and lots when
// the query looks like a lot id. Per-layer sorted indexes are built once; a query is a binary search plus
// a length-filtered bounded edit distance over the gazetteer.
import { featureBBox } from "../geo/bbox.ts";
import type { BBox } from "../geo/bbox.ts";
import { normaliseLotId } from "../packs/lot-id.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { SUBURBS, normaliseName, stateCode } from "./gazetteer.ts";

export type Suggestion =
  | { type: "suburb"; name: string; state: string | null; bbox: BBox; pack_id: string }
  | { type: "lot"; lot_id: string; pack_id: string; bbox: BBox };

type NameEntry = { key: string; index: number };
const nameIndexes = new WeakMap<Layer, { whole: NameEntry[]; words: NameEntry[] }>();
const lotIndexes = new WeakMap<Layer, NameEntry[]>();

const byKey = (a: NameEntry, b: NameEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index);

function names(layer: Layer) {
  let idx = nameIndexes.get(layer);
  if (idx) return idx;
  const whole: NameEntry[] = [];
  const words: NameEntry[] = [];
  for (let i = 0; i < layer.count; i++) {
    const name = layer.props(i).name;
    if (typeof name !== "string") continue;
    const key = normaliseName(name);
    whole.push({ key, index: i });
    const parts = key.split(" ");
    for (let w = 1; w < parts.length; w++) words.push({ key: parts.slice(w).join(" "), index: i });
  }
  idx = { whole: whole.sort(byKey), words: words.sort(byKey) };
  nameIndexes.set(layer, idx);
  return idx;
}

// Lot ids in canonical form ("12//DP34567"), sorted, so a partly typed id is a prefix search.
function lots(layer: Layer): NameEntry[] {
  let idx = lotIndexes.get(layer);
  if (idx) return idx;
  idx = [];
  for (let i = 0; i < layer.count; i++) {
    const raw = layer.props(i).lot_id;
    if (typeof raw === "string") idx.push({ key: normaliseLotId(raw) ?? raw.toUpperCase(), index: i });
  }
  idx.sort(byKey);
  lotIndexes.set(layer, idx);
  return idx;
}

/** Entries whose key starts with `prefix`, in key order, at most `limit`. */
function withPrefix(sorted: readonly NameEntry[], prefix: string, limit: number): NameEntry[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as NameEntry).key < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: NameEntry[] = [];
  for (let i = lo; i < sorted.length && out.length < limit; i++) {
    const e = sorted[i] as NameEntry;
    if (!e.key.startsWith(prefix)) break;
    out.push(e);
  }
  return out;
}

const row = new Int32Array(64);
const prev = new Int32Array(64);
const prev2 = new Int32Array(64);

/** Optimal-string-alignment distance between a and b, or max + 1 once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length >= 63) return max + 1;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev2.set(prev.subarray(0, b.length + 1));
    prev.set(row.subarray(0, b.length + 1));
  }
  return prev[b.length] as number;
}

// One typo in short names, two from eight letters: "Paramatta" is two edits from "parramatta".
const allowedEdits = (n: number) => (n < 4 ? 0 : n < 8 ? 1 : 2);

function suburb(pack: Pack, layer: Layer, i: number): Suggestion {
  const p = layer.props(i);
  const state = typeof p.state === "string" ? (stateCode(p.state) ?? p.state) : null;
  return { type: "suburb", name: String(p.name), state, bbox: featureBBox(layer, i), pack_id: pack.id };
}

export function suggest(packs: readonly Pack[], query: string, limit: number): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (s: Suggestion) => {
    const id = s.type === "lot" ? `lot:${s.pack_id}:${s.lot_id}` : `sub:${s.name}:${s.state}`;
    if (out.length >= limit || seen.has(id)) return;
    seen.add(id);
    out.push(s);
  };
  const lotKey = normaliseLotId(query);
  const lotish = lotKey !== null || /^\s*(lot\s*)?\d+[a-z]?\s*\//i.test(query);
  if (lotish) {
    const key =
      lotKey ??
      query
        .toUpperCase()
        .replace(/^\s*LOT\s*/, "")
        .replace(/\s+/g, "");
    for (const pack of packs) {
      const layer = pack.layers.get("parcels");
      if (layer?.kind !== "polygon") continue;
      for (const e of withPrefix(lots(layer), key, limit))
        add({
          type: "lot",
          lot_id: String(layer.props(e.index).lot_id),
          pack_id: pack.id,
          bbox: featureBBox(layer, e.index),
        });
    }
  }
  const q = normaliseName(query);
  if (q.length === 0) return out;
  const layers = packs.flatMap((pack) => {
    const layer = pack.layers.get(SUBURBS);
    return layer?.kind === "polygon" ? [{ pack, layer, idx: names(layer) }] : [];
  });
  for (const { pack, layer, idx } of layers)
    for (const e of withPrefix(idx.whole, q, limit)) add(suburb(pack, layer, e.index));
  for (const { pack, layer, idx } of layers)
    for (const e of withPrefix(idx.words, q, limit)) add(suburb(pack, layer, e.index));
  const max = allowedEdits(q.length);
  if (out.length >= limit || max === 0) return out;
  // Near misses, closest first: a query is compared with whole names and with their start of the same length.
  const near: { d: number; key: string; pack: Pack; layer: Layer; index: number }[] = [];
  for (const { pack, layer, idx } of layers)
    for (const e of idx.whole) {
      const d = Math.min(editDistance(q, e.key, max), editDistance(q, e.key.slice(0, q.length), max));
      if (d <= max) near.push({ d, key: e.key, pack, layer, index: e.index });
    }
  near.sort((a, b) => a.d - b.d || (a.key < b.key ? -1 : 1));
  for (const n of near) add(suburb(n.pack, n.layer, n.index));
  return out;
}
