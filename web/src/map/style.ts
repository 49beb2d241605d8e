// The map's style as data: an offline basemap from the packs' own vector tiles, the pack layers people
// toggle, and the sources the workspace draws into (scored sites, chat highlights, found sites, the selected lot).
import type { FilterSpecification, LayerSpecification, StyleSpecification } from "maplibre-gl";
import { GROUPS_SOURCE, groupLayers } from "./find/group-layers.ts";
import { foundLayers } from "./find/layers.ts";
import { ZONE_OPACITY, zoneColourExpression } from "./zone-colours.ts";
import type { TileJson } from "../../../src/routes/schemas/tiles.ts";
import landFile from "./basemap/sydney.geojson?url";

export type Toggle = "zoning" | "fsr" | "height" | "lot_size" | "overlays" | "stations";
export const TOGGLES: { id: Toggle; label: string; on: boolean }[] = [
  { id: "zoning", label: "Zoning", on: true },
  { id: "fsr", label: "FSR", on: false },
  { id: "height", label: "Height", on: false },
  { id: "lot_size", label: "Lot size", on: false },
  { id: "overlays", label: "Overlays", on: true },
  { id: "stations", label: "Stations", on: true },
];

/** The Okabe-Ito palette: its colours are told apart with every common colour-vision deficiency. */
export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  green: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  purple: "#CC79A7",
  black: "#000000",
  grey: "#999999",
} as const;
const P = OKABE_ITO;

export const RATING_COLOURS = { high: P.green, medium: P.orange, low: P.vermillion } as const;
/** Overlays: each a colour of its own and a line style of its own, so none is told by colour alone. */
export const OVERLAY_STYLE = {
  flood: { colour: P.blue, fill: 0.3, name: "Flood" },
  bushfire: { colour: P.vermillion, fill: 0.22, name: "Bushfire" },
  heritage: { colour: P.black, fill: 0, name: "Heritage" },
} as const;
/** What the chat points at: sky blue, a colour no overlay or zone outline uses. */
export const HIGHLIGHT_COLOUR = P.skyBlue;
export const SELECTED_COLOUR = "#111111";
export const STATION_COLOUR = "#1f4e5f";
/** Station markers by mode, in the colours Transport for NSW signs them with (routes.txt; light rail's L1). */
export const MODE_COLOURS = { Trains: "#F6891F", Metro: "#168388", "Light rail": "#BE1622" } as const;
export const SUBURB_LINE = "#a08f74";
/** Streets: a white carriageway over a light casing, as a street map draws minor roads, and their names in grey. */
export const STREET_COLOURS = { road: "#ffffff", casing: "#cdc3b1", name: "#4d4a45" } as const;
/** The offline basemap: sea and water, land, parks. */
export const BASE_COLOURS = { water: "#c6dff0", land: "#f4f1ea", park: "#d7ead0" } as const;

// Viridis: a sequential ramp that reads in order for every kind of colour vision and in grey.
const RAMP = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
export type Control = "fsr" | "height" | "lot_size";
export const CONTROLS: Control[] = ["fsr", "height", "lot_size"];
export const RAMPS: Record<Control, { field: string; stops: number[]; unit: string }> = {
  fsr: { field: "fsr", stops: [0.5, 1, 1.5, 2.5, 4], unit: ":1" },
  height: { field: "height_m", stops: [8.5, 12, 20, 35, 60], unit: "m" },
  lot_size: { field: "min_lot_m2", stops: [200, 450, 600, 1000, 2000], unit: "m²" },
};
export { RAMP };

const ramp = (field: string, stops: number[]) =>
  [
    "interpolate",
    ["linear"],
    ["to-number", ["get", field], 0],
    ...stops.flatMap((s, i) => [s, RAMP[i] as string]),
  ] as unknown as string;

const zoneColour = zoneColourExpression() as string;

/** The fonts of the offline map's names, served as glyph PBFs from /assets/glyphs (web/basemap/glyphs.ts). */
export const FONTS = { regular: ["dejavu-sans"], bold: ["dejavu-sans-bold"] };

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
  stations: "stations",
  // The world's street blocks are its zoning below the lots' zoom.
  blocks: "zoning",
};

/** A control layer is shown alone: the three share one ramp, so two at once could not be read. */
export function showOnly(visible: Record<Toggle, boolean>, t: Toggle, on: boolean): Record<Toggle, boolean> {
  const next = { ...visible, [t]: on };
  if (on && (CONTROLS as string[]).includes(t)) for (const c of CONTROLS) if (c !== t) next[c] = false;
  return next;
}

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
    // GET /packs lists the packs that answer first first (own, then an import, then the world): drawn last, on top.
    [...packIds]
      .reverse()
      .filter((p) => p.layers.includes(layer))
      .map((p) => make({ source: `pack-${p.id}`, "source-layer": layer }, p.id, p.own === true));
  return [
    ...each("suburbs", (src, id) => ({
      id: `${id}-suburbs-fill`,
      type: "fill",
      ...src,
      // Drawn under everything else and seen through: the map asks it which suburb is at the centre.
      paint: { "fill-color": BASE_COLOURS.land, "fill-opacity": 0 },
    })),
    ...each("zoning", (src, id) => ({
      id: `${id}-zoning`,
      type: "fill",
      ...src,
      layout: vis("zoning"),
      paint: { "fill-color": zoneColour, "fill-opacity": ZONE_OPACITY },
    })),
    // Below the lots' zoom a lots pack that knows its street blocks draws each in its main zone; the streets are the gaps.
    ...each("blocks", (src, id) => ({
      id: `${id}-blocks`,
      type: "fill",
      ...src,
      maxzoom: 14,
      layout: vis("zoning"),
      // Unsmoothed edges: lots and blocks sharing an edge (a park's rows, bushland's pieces) then meet without a seam.
      paint: { "fill-color": zoneColour, "fill-opacity": ZONE_OPACITY, "fill-antialias": false },
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
      // Unsmoothed edges: lots and blocks sharing an edge (a park's rows, bushland's pieces) then meet without a seam.
      paint: { "fill-color": zoneColour, "fill-opacity": ZONE_OPACITY, "fill-antialias": false },
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
    ...(["flood", "bushfire", "heritage"] as const).flatMap((field) =>
      each("parcels", (src, id) => ({
        id: `${id}-lots-${field}`,
        type: "fill",
        ...src,
        // A lot without the share (a pack built before it) is not in the overlay, not an expression error.
        filter: [">", ["to-number", ["coalesce", ["get", field], 0]], 0],
        layout: vis("overlays"),
        paint: { "fill-color": OVERLAY_STYLE[field].colour, "fill-opacity": OVERLAY_STYLE[field].fill || 0.12 },
      })),
    ),
    ...(["flood", "bushfire"] as const).flatMap((field) => [
      ...each(field, (src, id) => ({
        id: `${id}-${field}`,
        type: "fill",
        ...src,
        layout: vis("overlays"),
        paint: { "fill-color": OVERLAY_STYLE[field].colour, "fill-opacity": OVERLAY_STYLE[field].fill },
      })),
      ...each(field, (src, id) => ({
        id: `${id}-${field}-line`,
        type: "line",
        ...src,
        layout: vis("overlays"),
        paint: { "line-color": OVERLAY_STYLE[field].colour, "line-width": 1.5 },
      })),
    ]),
    ...each("heritage", (src, id) => ({
      id: `${id}-heritage`,
      type: "line",
      ...src,
      layout: vis("overlays"),
      paint: { "line-color": OVERLAY_STYLE.heritage.colour, "line-width": 2, "line-dasharray": [2, 1] },
    })),
    // Streets under the lots' outlines, in the gaps between blocks, always drawn: a person finds their way by them.
    ...each("streets", (src, id) => ({
      id: `${id}-streets-casing`,
      type: "line",
      ...src,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: {
        "line-color": STREET_COLOURS.casing,
        "line-width": ["interpolate", ["exponential", 1.6], ["zoom"], 13, 1.2, 16, 6, 18, 15],
      },
    })),
    ...each("streets", (src, id) => ({
      id: `${id}-streets`,
      type: "line",
      ...src,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: {
        "line-color": STREET_COLOURS.road,
        "line-width": ["interpolate", ["exponential", 1.6], ["zoom"], 13, 0.6, 16, 4.8, 18, 13],
      },
    })),
    ...each("parcels", (src, id) => ({
      id: `${id}-parcels-fill`,
      type: "fill",
      ...src,
      // Unseen and so never drawn (MapLibre skips a fill of opacity 0: in software WebGL a pass over every lot costs a
      // frame's worth), yet queried, as the suburbs' fill is: clicks and the search ask which lots are here.
      paint: { "fill-color": "#000000", "fill-opacity": 0 },
    })),
    ...each("parcels", (src, id, own) => ({
      id: `${id}-parcels-line`,
      type: "line",
      ...src,
      // A park or bushland is one piece of open land (packs/README.md, "Parks are parks"): no line between its lots.
      ...(own ? {} : { filter: ["!", ["in", ["coalesce", ["get", "zone"], ""], ["literal", ["RE1", "C2"]]]] }),
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
    // Rail, metro and light rail lines in their own colours over a white casing, always drawn: they orient a person.
    ...each("lines", (src, id) => ({
      id: `${id}-lines-casing`,
      type: "line",
      ...src,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: { "line-color": "#ffffff", "line-width": ["interpolate", ["linear"], ["zoom"], 8, 2.5, 14, 6, 18, 9] },
    })),
    ...each("lines", (src, id) => ({
      id: `${id}-lines`,
      type: "line",
      ...src,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: {
        "line-color": ["to-color", ["get", "colour"], STATION_COLOUR],
        "line-width": ["interpolate", ["linear"], ["zoom"], 8, 1.2, 14, 3.5, 18, 6],
      },
    })),
    ...each("suburbs", (src, id) => ({
      id: `${id}-suburbs-line`,
      type: "line",
      ...src,
      paint: {
        // Solid: a boundary two suburbs share is drawn twice, and two dash patterns over each other look ragged.
        "line-color": SUBURB_LINE,
        "line-width": ["interpolate", ["linear"], ["zoom"], 8, 0.6, 14, 1.8],
      },
    })),
    ...each("transport", (src, id) => ({
      id: `${id}-transport`,
      type: "circle",
      ...src,
      layout: vis("stations"),
      paint: {
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 11, 2.5, 16, 6],
        "circle-color": STATION_COLOUR,
        "circle-stroke-color": "#ffffff",
        "circle-stroke-width": 1.5,
      },
    })),
    // Stations by name; bus stops are too many to name.
    ...each("transport", (src, id) => ({
      id: `${id}-transport-label`,
      type: "symbol",
      ...src,
      minzoom: 12,
      filter: ["!=", ["get", "mode"], "bus"],
      layout: {
        ...vis("stations"),
        "text-field": ["get", "name"],
        "text-font": FONTS.regular,
        "text-size": ["interpolate", ["linear"], ["zoom"], 12, 11, 16, 13],
        "text-anchor": "top",
        "text-offset": [0, 0.7],
        "text-max-width": 8,
      },
      paint: { "text-color": STATION_COLOUR, "text-halo-color": "#ffffff", "text-halo-width": 1.5 },
    })),
    // Street names along their streets, placed before the stations' and suburbs' names, which win where they meet.
    ...each("streets", (src, id) => ({
      id: `${id}-streets-label`,
      type: "symbol",
      ...src,
      minzoom: 14,
      layout: {
        "symbol-placement": "line",
        "symbol-spacing": 300,
        "text-field": ["get", "name"],
        "text-font": FONTS.regular,
        "text-size": ["interpolate", ["linear"], ["zoom"], 14, 10, 17, 13],
        "text-padding": 2,
      },
      paint: { "text-color": STREET_COLOURS.name, "text-halo-color": "#ffffff", "text-halo-width": 1.5 },
    })),
    ...each("lines", (src, id) => ({
      id: `${id}-lines-label`,
      type: "symbol",
      ...src,
      minzoom: 12,
      layout: {
        "symbol-placement": "line",
        "symbol-spacing": 400,
        "text-field": ["get", "line"],
        "text-font": FONTS.bold,
        "text-size": 11,
      },
      paint: {
        "text-color": ["to-color", ["get", "colour"], STATION_COLOUR],
        "text-halo-color": "#ffffff",
        "text-halo-width": 2,
      },
    })),
    ...each("stations", (src, id) => ({
      id: `${id}-stations`,
      type: "circle",
      ...src,
      layout: vis("stations"),
      paint: {
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 10, 3, 14, 5.5, 18, 8],
        "circle-color": "#ffffff",
        "circle-stroke-color": [
          "match",
          ["get", "mode"],
          ...Object.entries(MODE_COLOURS).flat(),
          STATION_COLOUR,
        ] as unknown as string,
        "circle-stroke-width": ["interpolate", ["linear"], ["zoom"], 10, 1.5, 14, 2.5],
      },
    })),
    // Train and metro stations are named from zoom 11, light rail stops (closer together) from 13.
    ...[
      { suffix: "label", minzoom: 11, filter: ["!=", ["get", "mode"], "Light rail"] as FilterSpecification },
      { suffix: "light-rail-label", minzoom: 13, filter: ["==", ["get", "mode"], "Light rail"] as FilterSpecification },
    ].flatMap(({ suffix, minzoom, filter }) =>
      each("stations", (src, id) => ({
        id: `${id}-stations-${suffix}`,
        type: "symbol",
        ...src,
        filter,
        minzoom,
        layout: {
          ...vis("stations"),
          "text-field": ["get", "name"],
          "text-font": FONTS.bold,
          "text-size": ["interpolate", ["linear"], ["zoom"], 11, 10, 14, 12, 17, 14],
          "text-anchor": "top",
          "text-offset": [0, 0.8],
          "text-max-width": 8,
        },
        paint: { "text-color": "#1b1b1b", "text-halo-color": "#ffffff", "text-halo-width": 1.8 },
      })),
    ),
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
  {
    id: "highlight-fill",
    type: "fill",
    source: "highlight",
    paint: { "fill-color": HIGHLIGHT_COLOUR, "fill-opacity": 0.3 },
  },
  { id: "highlight-casing", type: "line", source: "highlight", paint: { "line-color": "#ffffff", "line-width": 5 } },
  {
    id: "highlight-line",
    type: "line",
    source: "highlight",
    paint: { "line-color": HIGHLIGHT_COLOUR, "line-width": 3 },
  },
  { id: "selected-line", type: "line", source: "selected", paint: { "line-color": SELECTED_COLOUR, "line-width": 3 } },
];

// As packs/sources/sydney-suburbs/README.md words it for the data the offline basemap is drawn from.
const BASEMAP_ATTRIBUTION =
  "Land and parks: ABS ASGS Ed. 3 (CC BY 4.0); rivers and lakes: NSW Spatial Services Hydro Area (CC BY 4.0); via juliansommer/sydney-suburbs";

/**
 * The offline basemap's land, parks, water and suburb names, by URL: the map's worker fetches and parses them, and one
 * URL for the sign-in page's map and the workspace's lets the workspace's style keep that source (issue 51, item 7).
 */
export const landUrl = (origin: string): string => new URL(landFile, origin).href;

/** The offline basemap under the packs: sea as the background, then land, parks, water; suburb names on top. */
export function offlineBase(origin: string) {
  const kind = (k: string) => ["==", ["get", "kind"], k] as FilterSpecification;
  const fill = (k: "land" | "park" | "water", paint: LayerSpecification["paint"]): LayerSpecification =>
    ({ id: `base-${k}`, type: "fill", source: "base", filter: kind(k), paint }) as LayerSpecification;
  const below: LayerSpecification[] = [
    { id: "background", type: "background", paint: { "background-color": BASE_COLOURS.water } },
    fill("land", { "fill-color": BASE_COLOURS.land }),
    fill("park", { "fill-color": BASE_COLOURS.park }),
    fill("water", { "fill-color": BASE_COLOURS.water, "fill-outline-color": "#9cc3de" }),
  ];
  const above: LayerSpecification[] = [
    {
      id: "base-suburb-label",
      type: "symbol",
      source: "base",
      filter: kind("suburb"),
      minzoom: 10,
      layout: {
        "text-field": ["get", "name"],
        "text-font": FONTS.bold,
        "text-size": ["interpolate", ["linear"], ["zoom"], 10, 10, 14, 13, 17, 15],
        "text-max-width": 7,
        "text-padding": 4,
      },
      paint: { "text-color": "#5b4f40", "text-halo-color": "rgba(255,255,255,0.9)", "text-halo-width": 1.6 },
    },
  ];
  return {
    glyphs: `${origin}/assets/glyphs/{fontstack}/{range}.pbf`,
    sources: {
      base: { type: "geojson", data: landUrl(origin), attribution: BASEMAP_ATTRIBUTION },
    } as StyleSpecification["sources"],
    below,
    above,
  };
}

/**
 * `next`, keeping the offline basemap a map already loaded (setStyle's transformStyle): MapLibre keeps the data it
 * loaded from a URL in the URL's place, so a diff against `next`'s URL would fetch and index it again.
 */
export function keepLoadedBase(previous: StyleSpecification | undefined, next: StyleSpecification): StyleSpecification {
  const had = previous?.sources.base;
  const wants = next.sources.base;
  if (had?.type !== "geojson" || wants?.type !== "geojson" || had.attribution !== wants.attribution) return next;
  return { ...next, sources: { ...next.sources, base: had } };
}

export function workspaceStyle(
  origin: string,
  packs: { id: string; layers: string[]; own?: boolean; tilejson: TileJson | null }[],
  visible: Record<Toggle, boolean>,
  base?: StyleSpecification,
): StyleSpecification {
  const offline = base ? null : offlineBase(origin);
  const sources: StyleSpecification["sources"] = { ...(base?.sources ?? offline?.sources ?? {}) };
  // Lots first: the map asks for tiles source by source, six at a time to one host, and the first lots tile drawn is
  // when the map is usable (issue 51, item 7).
  const lotsFirst = [...packs].sort(
    (a, b) => Number(b.layers.includes("parcels")) - Number(a.layers.includes("parcels")),
  );
  for (const p of lotsFirst) {
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
  for (const s of ["sites", "highlight", "selected", "found", GROUPS_SOURCE])
    sources[s] = { type: "geojson", data: EMPTY };
  const layers = packLayers(packs, visible);
  // A hosted style names places itself, in fonts of its own: our names are for the offline map.
  const labels = base ? layers.filter((l) => l.type !== "symbol") : layers;
  const glyphs = base ? base.glyphs : offline?.glyphs;
  return {
    version: 8,
    ...(glyphs ? { glyphs } : {}),
    ...(base?.sprite ? { sprite: base.sprite } : {}),
    sources,
    layers: [
      ...(base?.layers ?? offline?.below ?? []),
      ...labels,
      ...(offline?.above ?? []),
      ...foundLayers(packs),
      ...groupLayers(packs),
      ...DRAWN_LAYERS,
    ],
  };
}
