// Found sites on the map: a dot at each lot's inside point when zoomed out, the lot itself filled where lots are drawn.
import type { FilterSpecification, LayerSpecification } from "maplibre-gl";
import type { FoundSite } from "./types.ts";

/** A violet no other layer uses (zones, overlays, ratings and the chat's pink are all apart from it). */
export const FOUND_COLOUR = "#5D3A9B";

const SUFFIXES = ["-found-fill", "-found-line"];

/** A lot layer's filter for these lot ids (none at first). */
export const lotFilter = (ids: readonly string[]): FilterSpecification => ["in", ["get", "lot_id"], ["literal", ids]];

/** The found lots' outlines in each lots pack, and the dots, drawn above the pack layers. */
export function foundLayers(packs: { id: string; layers: string[] }[]): LayerSpecification[] {
  const lots = packs.filter((p) => p.layers.includes("parcels"));
  return [
    ...lots.map(
      (p): LayerSpecification => ({
        id: `${p.id}-found-fill`,
        type: "fill",
        source: `pack-${p.id}`,
        "source-layer": "parcels",
        filter: lotFilter([]),
        paint: { "fill-color": FOUND_COLOUR, "fill-opacity": 0.4 },
      }),
    ),
    ...lots.map(
      (p): LayerSpecification => ({
        id: `${p.id}-found-line`,
        type: "line",
        source: `pack-${p.id}`,
        "source-layer": "parcels",
        filter: lotFilter([]),
        paint: { "line-color": FOUND_COLOUR, "line-width": ["interpolate", ["linear"], ["zoom"], 14, 1.5, 18, 3] },
      }),
    ),
    {
      id: "found-dot",
      type: "circle",
      source: "found",
      // Where lots are drawn (z15 on) the filled lot marks the site. A ring, not a disc: the stations are solid dots.
      paint: {
        "circle-color": "#ffffff",
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 10, 2.5, 14, 4],
        "circle-stroke-color": FOUND_COLOUR,
        "circle-stroke-width": ["interpolate", ["linear"], ["zoom"], 10, 2, 14, 2.5],
        "circle-opacity": ["interpolate", ["linear"], ["zoom"], 14.5, 1, 15.5, 0],
        "circle-stroke-opacity": ["interpolate", ["linear"], ["zoom"], 14.5, 1, 15.5, 0],
      },
    },
  ];
}

/** The pack a found-lot layer draws, or null for any other layer. */
export function packOfFoundLayer(layerId: string): string | null {
  const suffix = SUFFIXES.find((s) => layerId.endsWith(s));
  return suffix ? layerId.slice(0, -suffix.length) : null;
}

/** The sites' lot ids by pack, for each pack's outline filter. */
export function lotIdsByPack(sites: readonly FoundSite[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const s of sites) {
    if (s.lot_id === null) continue;
    const ids = by.get(s.pack_id);
    if (ids) ids.push(s.lot_id);
    else by.set(s.pack_id, [s.lot_id]);
  }
  return by;
}

export function foundPoints(sites: readonly FoundSite[]): GeoJSON.FeatureCollection {
  return {
    type: "FeatureCollection",
    features: sites.map((s) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: s.center },
      properties: { lot_id: s.lot_id },
    })),
  };
}
