// TileJSON 3.0.0 for a pack: its tile URL template (carrying the pack version), zooms, bounds and layers.
import type { BBox } from "../geo/bbox.ts";
import type { LayerInfo } from "../packs/types.ts";
import { layerMaxZoom, layerMinZoom, TILE_MAX_ZOOM } from "./layers.ts";
import { TILE_DRAWING } from "./drawing.ts";

/** What a TileJSON describes of a pack: a v1 pack, or a v2 pack's root. */
export type TiledPack = {
  id: string;
  version: string;
  meta: { title: string; attribution: string };
  bbox: BBox;
  layers: { values(): Iterable<Pick<LayerInfo, "name" | "kind" | "count" | "synthetic" | "fields">> };
};

/** The tile URL's `v`: the pack's version, and the packs above it when there are (their tag, cover.ts). */
export const versionParam = (version: string, aboveTag = ""): string =>
  aboveTag === "" ? version : `${version}~${aboveTag}`;

/** `aboveTag`: what the public packs that outrank this one add to its tiles' URL (src/tiles/above.ts). */
export function tileJson(pack: TiledPack, origin: string, aboveTag = "") {
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
    tiles: [
      `${origin}/tiles/${encodeURIComponent(pack.id)}/{z}/{x}/{y}.mvt?v=${encodeURIComponent(versionParam(pack.version, aboveTag))}&d=${TILE_DRAWING}`,
    ],
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
      description: `${l.kind === "point" ? "Points" : l.kind === "line" ? "Lines" : "Polygons"}: ${l.count} features${l.synthetic ? " (synthetic demo data)" : ""}`,
      minzoom: layerMinZoom(l.name),
      maxzoom: layerMaxZoom(l.name),
      fields: fields(l.fields, l.name === "parcels" ? { area_m2: "Number" } : {}),
    })),
  };
}
