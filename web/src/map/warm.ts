// The style the page's map is first built with while the sign-in page waits: every layer kind the workspace draws,
// so their shaders are compiled before the workspace needs them (in software WebGL a first draw costs tens of ms).
import type { LayerSpecification, StyleSpecification } from "maplibre-gl";
import { DRAWN_LAYERS, packLayers, TOGGLE_OF_LAYER, TOGGLES, type Toggle } from "./style.ts";

// Every pack layer the workspace styles: those a toggle shows, and lots, suburbs and streets, always drawn.
const KINDS = [...Object.keys(TOGGLE_OF_LAYER), "parcels", "suburbs", "streets"];
const AT: [number, number] = [151, -33.8];
const d = 0.01; // a polygon over several tiles at the warm-up zoom
const PROPS = { zone: "R2", fsr: 1, height_m: 9, min_lot_m2: 450, rating: "high" };
const DATA: GeoJSON.FeatureCollection = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      properties: PROPS,
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [AT[0] - d, AT[1] - d],
            [AT[0] + d, AT[1] - d],
            [AT[0] + d, AT[1] + d],
            [AT[0] - d, AT[1] - d],
          ],
        ],
      },
    },
    { type: "Feature", properties: PROPS, geometry: { type: "Point", coordinates: AT } },
  ],
};

/** Every layer the workspace can show, over one polygon and one point: drawing it once compiles their shaders. */
export function warmStyle(): StyleSpecification {
  const all = Object.fromEntries(TOGGLES.map((t) => [t.id, true])) as Record<Toggle, boolean>;
  const packs = [
    { id: "public", layers: KINDS },
    { id: "own", layers: ["parcels"], own: true },
  ];
  const layers = [...packLayers(packs, all), ...DRAWN_LAYERS].map((l) => {
    const { "source-layer": _, ...rest } = l as LayerSpecification & { "source-layer"?: string };
    return { ...rest, source: "warm" } as LayerSpecification;
  });
  return {
    version: 8,
    sources: { warm: { type: "geojson", data: DATA } },
    layers: [{ id: "background", type: "background", paint: { "background-color": "#f7f5f0" } }, ...layers],
  };
}

export const WARM_VIEW = { center: AT, zoom: 14 };
