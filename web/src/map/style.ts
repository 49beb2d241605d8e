// The map's style as data: an offline basemap from the packs' own vector tiles, the pack layers people
// toggle, and the sources the workspace draws into (scored sites, chat highlights, found sites, the selected lot).
import type { LayerSpecification, StyleSpecification } from "maplibre-gl";
import { foundLayers } from "./find/layers.ts";
import type { TileJson } from "./packs.ts";

export type Toggle = "zoning" | "fsr" | "height" | "lot_size" | "overlays" | "stations";
export const TOGGLES: { id: Toggle; label: string; on: boolean }[] = [
  { id: "zoning", label: "Zoning", on: true },
  { id: "fsr", label: "FSR", on: false },
  { id: "height", label: "Height", on: false },
  { id: "lot_size", label: "Lot size", on: false },
  { id: "overlays", label: "Overlays", on: true },
  { id: "stations", label: "Stations", on: true },
];

// Okabe-Ito colours: told apart with every common colour-vision deficiency.
export const RATING_COLOURS = { high: "#009E73", medium: "#E69F00", low: "#D55E00" } as const;
export const ZONE_COLOURS: [string, string, string][] = [
  ["R", "#F3D37A", "Residential"],
  ["B", "#7FB3E0", "Business"],
  ["E", "#7FB3E0", "Employment"],
  ["M", "#E8A87C", "Mixed use"],
  ["I", "#B9A8DB", "Industrial"],
  ["S", "#C9C9C9", "Special purpose"],
  ["C", "#8FC49A", "Conservation"],
];
const RAMP = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
export const RAMPS: Record<"fsr" | "height" | "lot_size", { field: string; stops: number[]; unit: string }> = {
  fsr: { field: "fsr", stops: [0.5, 1, 1.5, 2.5, 4], unit: ":1" },
  height: { field: "height_m", stops: [8.5, 12, 20, 35, 60], unit: " m" },
  lot_size: { field: "min_lot_m2", stops: [200, 450, 600, 1000, 2000], unit: " m²" },
};
export { RAMP };

const ramp = (field: string, stops: number[]) =>
  [
    "interpolate",
    ["linear"],
    ["to-number", ["get", field], 0],
    ...stops.flatMap((s, i) => [s, RAMP[i] as string]),
  ] as unknown as string;

const zoneColour = [
  "match",
  ["slice", ["to-string", ["get", "zone"]], 0, 1],
  ...ZONE_COLOURS.flatMap((z) => z.slice(0, 2)),
  "#dddddd",
] as unknown as string;

/** The toggle that shows a pack layer, for those a person can switch (lots and suburbs are always drawn). */
export const TOGGLE_OF_LAYER: Partial<Record<string, Toggle>> = {
  zoning: "zoning",
  fsr: "fsr",
  height: "height",
  lot_size: "lot_size",
  flood: "overlays",
  bushfire: "overlays",
  heritage: "overlays",
  transport: "stations",
};

/** The organisation's own lots are outlined in a colour of their own, so an upload is told from the public lots. */
export const OWN_LOTS_COLOUR = "#0072B2";

/** The workspace's own layers over the packs, grouped by kind across packs so no pack's basemap covers another's data. */
export function packLayers(
  packIds: { id: string; layers: string[]; own?: boolean }[],
  visible: Record<Toggle, boolean>,
): LayerSpecification[] {
  const vis = (t: Toggle) => ({ visibility: visible[t] ? ("visible" as const) : ("none" as const) });
  const each = (
    layer: string,
    make: (src: { source: string; "source-layer": string }, id: string, own: boolean) => LayerSpecification,
  ) =>
    packIds
      .filter((p) => p.layers.includes(layer))
      .map((p) => make({ source: `pack-${p.id}`, "source-layer": layer }, p.id, p.own === true));
  return [
    ...each("suburbs", (src, id) => ({
      id: `${id}-suburbs-fill`,
      type: "fill",
      ...src,
      paint: { "fill-color": "#efebe2" },
    })),
    ...each("zoning", (src, id) => ({
      id: `${id}-zoning`,
      type: "fill",
      ...src,
      layout: vis("zoning"),
      paint: { "fill-color": zoneColour, "fill-opacity": 0.5 },
    })),
    ...(["fsr", "height", "lot_size"] as const).flatMap((key) =>
      each(key, (src, id) => ({
        id: `${id}-${key}`,
        type: "fill",
        ...src,
        layout: vis(key),
        paint: { "fill-color": ramp(RAMPS[key].field, RAMPS[key].stops), "fill-opacity": 0.55 },
      })),
    ),
    // A v2 lots pack carries each lot's zone, controls and overlay shares on the lot itself (from z14).
    ...each("parcels", (src, id) => ({
      id: `${id}-lots-zoning`,
      type: "fill",
      ...src,
      filter: ["has", "zone"],
      layout: vis("zoning"),
      paint: { "fill-color": zoneColour, "fill-opacity": 0.5 },
    })),
    ...(["fsr", "height", "lot_size"] as const).flatMap((key) =>
      each("parcels", (src, id) => ({
        id: `${id}-lots-${key}`,
        type: "fill",
        ...src,
        filter: ["has", RAMPS[key].field],
        layout: vis(key),
        paint: { "fill-color": ramp(RAMPS[key].field, RAMPS[key].stops), "fill-opacity": 0.55 },
      })),
    ),
    ...(
      [
        ["flood", "#0072B2", 0.25],
        ["bushfire", "#D55E00", 0.2],
        ["heritage", "#CC79A7", 0.3],
      ] as const
    ).flatMap(([field, colour, opacity]) =>
      each("parcels", (src, id) => ({
        id: `${id}-lots-${field}`,
        type: "fill",
        ...src,
        filter: [">", ["get", field], 0],
        layout: vis("overlays"),
        paint: { "fill-color": colour, "fill-opacity": opacity },
      })),
    ),
    ...each("flood", (src, id) => ({
      id: `${id}-flood`,
      type: "fill",
      ...src,
      layout: vis("overlays"),
      paint: { "fill-color": "#0072B2", "fill-opacity": 0.25 },
    })),
    ...each("bushfire", (src, id) => ({
      id: `${id}-bushfire`,
      type: "fill",
      ...src,
      layout: vis("overlays"),
      paint: { "fill-color": "#D55E00", "fill-opacity": 0.2 },
    })),
    ...each("heritage", (src, id) => ({
      id: `${id}-heritage`,
      type: "line",
      ...src,
      layout: vis("overlays"),
      paint: { "line-color": "#CC79A7", "line-width": 2 },
    })),
    ...each("parcels", (src, id) => ({
      id: `${id}-parcels-fill`,
      type: "fill",
      ...src,
      paint: { "fill-color": "#000000", "fill-opacity": 0.001 },
    })),
    ...each("parcels", (src, id, own) => ({
      id: `${id}-parcels-line`,
      type: "line",
      ...src,
      paint: own
        ? {
            "line-color": OWN_LOTS_COLOUR,
            "line-width": ["interpolate", ["linear"], ["zoom"], 12, 1, 18, 2.5],
          }
        : {
            "line-color": "#3d3d3d",
            "line-opacity": 0.6,
            "line-width": ["interpolate", ["linear"], ["zoom"], 14, 0.35, 18, 1.3],
          },
    })),
    ...each("suburbs", (src, id) => ({
      id: `${id}-suburbs-line`,
      type: "line",
      ...src,
      paint: {
        "line-color": "#8d7f68",
        "line-width": ["interpolate", ["linear"], ["zoom"], 8, 0.6, 14, 1.8],
        "line-dasharray": [3, 2],
      },
    })),
    ...each("transport", (src, id) => ({
      id: `${id}-transport`,
      type: "circle",
      ...src,
      layout: vis("stations"),
      paint: {
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 11, 2.5, 16, 6],
        "circle-color": "#1f4e5f",
        "circle-stroke-color": "#ffffff",
        "circle-stroke-width": 1.5,
      },
    })),
  ] as LayerSpecification[];
}

const EMPTY = { type: "FeatureCollection" as const, features: [] };

/** Sources and layers the workspace draws into, on top of everything else. */
export const DRAWN_LAYERS: LayerSpecification[] = [
  {
    id: "sites-fill",
    type: "fill",
    source: "sites",
    paint: {
      "fill-color": [
        "match",
        ["get", "rating"],
        "high",
        RATING_COLOURS.high,
        "medium",
        RATING_COLOURS.medium,
        RATING_COLOURS.low,
      ],
      "fill-opacity": 0.65,
    },
  },
  { id: "sites-line", type: "line", source: "sites", paint: { "line-color": "#1b1b1b", "line-width": 1 } },
  { id: "highlight-fill", type: "fill", source: "highlight", paint: { "fill-color": "#CC79A7", "fill-opacity": 0.25 } },
  { id: "highlight-line", type: "line", source: "highlight", paint: { "line-color": "#8c3f70", "line-width": 2 } },
  { id: "selected-line", type: "line", source: "selected", paint: { "line-color": "#111111", "line-width": 3 } },
];

export function workspaceStyle(
  origin: string,
  packs: { id: string; layers: string[]; own?: boolean; tilejson: TileJson | null }[],
  visible: Record<Toggle, boolean>,
  base?: StyleSpecification,
): StyleSpecification {
  const sources: StyleSpecification["sources"] = { ...(base?.sources ?? {}) };
  for (const p of packs) {
    const tj = p.tilejson;
    // Inline TileJSON (fetched with the pack list) saves the map a round trip per pack before its first tiles.
    sources[`pack-${p.id}`] = tj
      ? {
          type: "vector",
          tiles: tj.tiles,
          minzoom: tj.minzoom,
          maxzoom: tj.maxzoom,
          ...(tj.bounds?.length === 4 ? { bounds: tj.bounds as [number, number, number, number] } : {}),
          ...(tj.attribution ? { attribution: tj.attribution } : {}),
        }
      : { type: "vector", url: `${origin}/tiles/${encodeURIComponent(p.id)}.json` };
  }
  for (const s of ["sites", "highlight", "selected", "found"]) sources[s] = { type: "geojson", data: EMPTY };
  const layers = packLayers(packs, visible).filter((l) => !(base && l.id.includes("suburbs-fill")));
  return {
    version: 8,
    ...(base?.glyphs ? { glyphs: base.glyphs } : {}),
    ...(base?.sprite ? { sprite: base.sprite } : {}),
    sources,
    layers: [
      ...(base?.layers ?? [{ id: "background", type: "background", paint: { "background-color": "#f7f5f0" } }]),
      ...layers,
      ...foundLayers(packs),
      ...DRAWN_LAYERS,
    ],
  };
}
