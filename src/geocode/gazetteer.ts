// Suburb name -> bounding box, from the `suburbs` layer of each pack (first pack in the list wins a tie).
import { featureBBox } from "../geo/bbox.ts";
import type { BBox } from "../geo/bbox.ts";
import { featureCentroid } from "../geo/centroid.ts";
import type { Layer, Pack } from "../packs/types.ts";

export type GeocodeResult = {
  name: string;
  state: string | null;
  bbox: BBox;
  center: [number, number];
  sal_code: string | null;
  pack_id: string;
};

export const SUBURBS = "suburbs";

const STATES: Record<string, string> = {
  nsw: "NSW",
  "new south wales": "NSW",
  vic: "VIC",
  victoria: "VIC",
  qld: "QLD",
  queensland: "QLD",
  sa: "SA",
  "south australia": "SA",
  wa: "WA",
  "western australia": "WA",
  tas: "TAS",
  tasmania: "TAS",
  nt: "NT",
  "northern territory": "NT",
  act: "ACT",
  "australian capital territory": "ACT",
  ot: "OT",
  "other territories": "OT",
};

// Abbreviation for a state written either way ("New South Wales" -> "NSW"), or null.
export function stateCode(s: string): string | null {
  return STATES[normaliseName(s)] ?? null;
}

// Case, punctuation and spacing do not distinguish suburb names; "Saint"/"Mount" match "St"/"Mt".
export function normaliseName(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’`.]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .replace(/\bsaint\b/g, "st")
    .replace(/\bmount\b/g, "mt");
}

type Entry = { index: number; state: string | null };
const nameIndexes = new WeakMap<Layer, Map<string, Entry[]>>();

function nameIndex(layer: Layer): Map<string, Entry[]> {
  let map = nameIndexes.get(layer);
  if (map) return map;
  map = new Map();
  for (let i = 0; i < layer.count; i++) {
    const p = layer.props(i);
    if (typeof p.name !== "string") continue;
    const key = normaliseName(p.name);
    const state = typeof p.state === "string" ? (stateCode(p.state) ?? p.state) : null;
    const list = map.get(key);
    if (list) list.push({ index: i, state });
    else map.set(key, [{ index: i, state }]);
  }
  nameIndexes.set(layer, map);
  return map;
}

// Splits a trailing state ("Newtown, NSW", "newtown nsw", "Newtown New South Wales") off the name.
function splitState(query: string): { name: string; state: string }[] {
  const out: { name: string; state: string }[] = [];
  const comma = query.lastIndexOf(",");
  if (comma > 0) {
    const st = stateCode(query.slice(comma + 1));
    if (st) out.push({ name: normaliseName(query.slice(0, comma)), state: st });
  }
  const words = normaliseName(query).split(" ");
  for (let k = 1; k <= 3 && k < words.length; k++) {
    const st = STATES[words.slice(-k).join(" ")];
    if (st) out.push({ name: words.slice(0, -k).join(" "), state: st });
  }
  return out;
}

export function suburbResult(pack: Pack, layer: Layer, i: number): GeocodeResult {
  const p = layer.props(i);
  const hasLabel = typeof p.label_lon === "number" && typeof p.label_lat === "number";
  const state = typeof p.state === "string" ? (stateCode(p.state) ?? p.state) : null;
  return {
    name: typeof p.name === "string" ? p.name : "",
    state,
    bbox: featureBBox(layer, i),
    center: hasLabel ? [p.label_lon as number, p.label_lat as number] : featureCentroid(layer, i),
    sal_code: typeof p.sal_code === "string" ? p.sal_code : null,
    pack_id: pack.id,
  };
}

function lookup(packs: readonly Pack[], name: string, state: string | null): GeocodeResult | null {
  for (const pack of packs) {
    const layer = pack.layers.get(SUBURBS);
    if (layer?.kind !== "polygon") continue;
    const hits = nameIndex(layer).get(name);
    const hit = hits?.find((h) => state === null || h.state === state);
    if (hit) return suburbResult(pack, layer, hit.index);
  }
  return null;
}

export function geocode(packs: readonly Pack[], query: string): GeocodeResult | null {
  const whole = normaliseName(query);
  if (whole.length === 0) return null;
  // A state qualifier is tried first so "Newtown VIC" does not fall back to the NSW Newtown.
  for (const { name, state } of splitState(query)) {
    if (name.length === 0) continue;
    const hit = lookup(packs, name, state);
    if (hit) return hit;
  }
  return lookup(packs, whole, null);
}
