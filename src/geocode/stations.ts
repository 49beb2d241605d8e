// A railway, metro or light rail station by name, from the transport pack's `stations` layer: "near Central
// station" is around Central, which is no suburb.
import type { Layer, Pack } from "../packs/types.ts";
import { normaliseName } from "./gazetteer.ts";

export const STATIONS = "stations";

export interface StationHit {
  name: string;
  mode: string | null;
  lon: number;
  lat: number;
}

// "Central Station", "Glebe Light Rail" and "Central" name one place.
const stationKey = (s: string) => normaliseName(s).replace(/\s+(?:train|railway|metro)?\s*station$|\s+light rail$/, "");

const indexes = new WeakMap<Layer, Map<string, number>>();

function index(layer: Layer): Map<string, number> {
  let map = indexes.get(layer);
  if (map) return map;
  map = new Map();
  for (let i = 0; i < layer.count; i++) {
    const p = layer.props(i);
    if (typeof p.name !== "string") continue;
    const key = stationKey(p.name);
    const had = map.get(key);
    // Town Hall is a train and a light rail stop: the train station is the one people mean.
    if (had === undefined || (p.mode === "Trains" && layer.props(had).mode !== "Trains")) map.set(key, i);
  }
  indexes.set(layer, map);
  return map;
}

/** The station a name means in the first pack that has one, or null. */
export function stationNamed(packs: readonly Pack[], name: string): StationHit | null {
  const key = stationKey(name);
  if (key === "") return null;
  for (const pack of packs) {
    const layer = pack.layers.get(STATIONS);
    if (layer?.kind !== "point") continue;
    const i = index(layer).get(key);
    if (i === undefined) continue;
    const p = layer.props(i);
    const lon = layer.coords[2 * i] as number;
    const lat = layer.coords[2 * i + 1] as number;
    return { name: String(p.name), mode: typeof p.mode === "string" ? p.mode : null, lon, lat };
  }
  return null;
}
