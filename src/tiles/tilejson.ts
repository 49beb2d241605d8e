// TileJSON 3.0.0 for a pack: its tile URL template (carrying the pack version), zooms, bounds and layers.
import type { Pack } from "../packs/types.ts";
import { layerMinZoom, TILE_MAX_ZOOM } from "./layers.ts";

export function tileJson(pack: Pack, origin: string) {
  const layers = [...pack.layers.values()];
  const fields = (names: readonly string[], extra: Record<string, string>) => ({
    ...Object.fromEntries(names.map((f) => [f, "String or Number"])),
    ...extra,
  });
  return {
    tilejson: "3.0.0" as const,
    name: pack.meta.title,
    version: pack.version,
    attribution: pack.meta.attribution,
    scheme: "xyz" as const,
    tiles: [`${origin}/tiles/${encodeURIComponent(pack.id)}/{z}/{x}/{y}.mvt?v=${encodeURIComponent(pack.version)}`],
    minzoom: Math.min(...layers.map((l) => layerMinZoom(l.name))),
    maxzoom: TILE_MAX_ZOOM,
    bounds: pack.bbox,
    center: [
      (pack.bbox[0] + pack.bbox[2]) / 2,
      (pack.bbox[1] + pack.bbox[3]) / 2,
      Math.max(12, layerMinZoom("parcels")),
    ] as [number, number, number],
    vector_layers: layers.map((l) => ({
      id: l.name,
      description: `${l.kind === "point" ? "Points" : "Polygons"}: ${l.count} features${l.synthetic ? " (synthetic demo data)" : ""}`,
      minzoom: layerMinZoom(l.name),
      maxzoom: TILE_MAX_ZOOM,
      fields: fields(l.fields, l.name === "parcels" ? { area_m2: "Number" } : {}),
    })),
  };
}
