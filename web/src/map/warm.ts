// The style the page's map is first built with while the sign-in page waits: every layer kind the workspace draws,
// so their shaders are compiled before the workspace needs them (in software WebGL a first draw costs tens of ms),
// and, offline, the workspace's basemap and names' glyphs, so the workspace's style finds them loaded.
import type { LayerSpecification, StyleSpecification } from "maplibre-gl";
import { DRAWN_LAYERS, offlineBase, packLayers, TOGGLE_OF_LAYER, TOGGLES, type Toggle } from "./style.ts";

// Every pack layer the workspace styles: those a toggle shows, and lots, suburbs and streets, always drawn.
const KINDS = [...Object.keys(TOGGLE_OF_LAYER), "parcels", "suburbs", "streets"];
// Parramatta station: Sydney's middle, a suburb whose lots every world size has (the small world keeps each
// suburb's lots nearest its station), where the workspace opens without a view of its own (first-view.ts).
const AT: [number, number] = [151.0055, -33.8176];
const d = 0.01; // a polygon over several tiles at the warm-up zoom
const PROPS = { zone: "R2", fsr: 1, height_m: 9, min_lot_m2: 450, rating: "high" };

function data(named: boolean): GeoJSON.FeatureCollection {
  // A named point makes the label layers ask for their glyphs now (offline the glyphs are ours; a hosted style names
  // places). Only the point: the search box names the suburb under the map's centre from the polygons.
  const point = named ? { ...PROPS, name: "Parramatta", line: "T1" } : PROPS;
  const ring: [number, number][] = [
    [AT[0] - d, AT[1] - d],
    [AT[0] + d, AT[1] - d],
    [AT[0] + d, AT[1] + d],
    [AT[0] - d, AT[1] - d],
  ];
  return {
    type: "FeatureCollection",
    features: [
      { type: "Feature", properties: PROPS, geometry: { type: "Polygon", coordinates: [ring] } },
      { type: "Feature", properties: point, geometry: { type: "Point", coordinates: AT } },
    ],
  };
}

/**
 * Every layer the workspace can show, over one polygon and one point: drawing it once compiles their shaders. With
 * `offline`, the offline basemap too, given as the workspace gives it, so that source stays loaded when its style is set.
 */
export function warmStyle(offline: boolean): StyleSpecification {
  const all = Object.fromEntries(TOGGLES.map((t) => [t.id, true])) as Record<Toggle, boolean>;
  const packs = [
    { id: "public", layers: KINDS },
    { id: "own", layers: ["parcels"], own: true },
  ];
  const layers = [...packLayers(packs, all), ...DRAWN_LAYERS].map((l) => {
    const { "source-layer": _, ...rest } = l as LayerSpecification & { "source-layer"?: string };
    return { ...rest, source: "warm" } as LayerSpecification;
  });
  const base = offline ? offlineBase(location.origin) : null;
  return {
    version: 8,
    ...(base ? { glyphs: base.glyphs } : {}),
    sources: { ...base?.sources, warm: { type: "geojson", data: data(offline) } },
    layers: [
      ...(base?.below ?? [{ id: "background", type: "background", paint: { "background-color": "#f7f5f0" } }]),
      ...layers,
      ...(base?.above ?? []),
    ],
  };
}

export const WARM_VIEW = { center: AT, zoom: 14 };
