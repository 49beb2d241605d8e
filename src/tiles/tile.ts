// A pack's vector tiles: which layers appear at which zoom, the tile's bytes, and its TileJSON.
import type { Pack } from "../packs/types.ts";
import { type TileAddress, tileBBox } from "./coords.ts";
import { cutLayer } from "./cut.ts";
import { type TileLayer, encodeTile } from "./mvt.ts";
import { bboxIntersects } from "../geo/bbox.ts";

export const MIN_ZOOM = 8;
export const MAX_ZOOM = 16;
// Lots are too small to see below z13; drawing thousands of them there would only cost bytes.
const LAYER_MIN_ZOOM: Record<string, number> = { parcels: 13 };

export function layerMinZoom(name: string): number {
  return LAYER_MIN_ZOOM[name] ?? MIN_ZOOM;
}

/** The tile's MVT bytes, or null when no layer of the pack reaches it at this zoom. */
export function renderTile(pack: Pack, t: TileAddress): Uint8Array | null {
  if (t.z < MIN_ZOOM || !bboxIntersects(pack.bbox, tileBBox(t))) return null;
  const layers: TileLayer[] = [];
  for (const layer of pack.layers.values()) {
    if (t.z < layerMinZoom(layer.name) || !layer.index) continue;
    const features = cutLayer(layer, t);
    if (features.length > 0) layers.push({ name: layer.name, features });
  }
  return layers.length === 0 ? null : encodeTile(layers);
}

type FieldType = "String" | "Number" | "Boolean";

function fieldTypes(pack: Pack, layerName: string): Record<string, FieldType> {
  const layer = pack.layers.get(layerName);
  const out: Record<string, FieldType> = {};
  if (!layer) return out;
  // The first few features tell each field's type; fields never seen with a value are reported as String.
  const sample = Math.min(layer.count, 50);
  for (const f of layer.fields) out[f] = "String";
  for (let i = 0; i < sample; i++)
    for (const [k, v] of Object.entries(layer.props(i))) {
      if (typeof v === "number") out[k] = "Number";
      else if (typeof v === "boolean") out[k] = "Boolean";
    }
  return out;
}

/** TileJSON 3.0.0 for the pack; `tileUrl` is the absolute URL template carrying the pack version. */
export function tileJson(pack: Pack, tileUrl: string) {
  const [w, s, e, n] = pack.bbox;
  return {
    tilejson: "3.0.0",
    name: pack.meta.title,
    description: pack.meta.note ?? null,
    version: pack.version,
    attribution: pack.meta.attribution,
    scheme: "xyz",
    tiles: [tileUrl],
    minzoom: MIN_ZOOM,
    maxzoom: MAX_ZOOM,
    bounds: [w, s, e, n],
    center: [(w + e) / 2, (s + n) / 2, 14],
    vector_layers: [...pack.layers.values()].map((l) => ({
      id: l.name,
      description: `${l.kind} layer, ${l.count} features${l.synthetic ? " (synthetic demo data)" : ""}`,
      fields: fieldTypes(pack, l.name),
      minzoom: layerMinZoom(l.name),
      maxzoom: MAX_ZOOM,
    })),
  };
}

/** The tile's ETag: a pack version and address name its bytes. */
export function tileEtag(pack: Pack, t: TileAddress): string {
  return `"${pack.id}@${pack.version}/${t.z}/${t.x}/${t.y}"`;
}
