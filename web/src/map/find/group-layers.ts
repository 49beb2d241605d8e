// Groups of adjoining lots on the map: each group one outline (the union of its lots) with its lots' own lines inside,
// and the neighbours it would isolate hatched in red (style data only: the hatch image and the hover are group-map.ts).
import type { FilterSpecification, LayerSpecification } from "maplibre-gl";
import { FOUND_COLOUR, lotFilter } from "./layers.ts";
import type { FoundGroup } from "./types.ts";

/** Red, as the page's danger colour: a lot the group would leave stranded. */
export const ISOLATED_COLOUR = "#b3261e";
/** The hatch's image name; the map asks for it when first drawn (styleimagemissing) and group-map.ts draws it. */
export const HATCH_IMAGE = "isolated-hatch";
export const GROUPS_SOURCE = "groups";

const LOTS_SUFFIX = "-group-lots";
const ISOLATED_SUFFIXES = ["-isolated-fill", "-isolated-line"];

/** Each lots pack's lines for the groups' lots and hatches for their isolated neighbours, then the groups' outlines. */
export function groupLayers(packs: { id: string; layers: string[] }[]): LayerSpecification[] {
  const lots = packs.filter((p) => p.layers.includes("parcels"));
  const layer = (p: { id: string }, suffix: string, rest: Omit<LayerSpecification, "id" | "source">) =>
    ({
      id: `${p.id}${suffix}`,
      source: `pack-${p.id}`,
      "source-layer": "parcels",
      filter: lotFilter([]),
      ...rest,
    }) as LayerSpecification;
  return [
    ...lots.map((p) =>
      layer(p, "-isolated-fill", { type: "fill", paint: { "fill-pattern": HATCH_IMAGE, "fill-opacity": 0.9 } }),
    ),
    ...lots.map((p) =>
      layer(p, "-isolated-line", {
        type: "line",
        paint: { "line-color": ISOLATED_COLOUR, "line-width": 2, "line-dasharray": [2, 1.5] },
      }),
    ),
    {
      id: "group-fill",
      type: "fill",
      source: GROUPS_SOURCE,
      paint: { "fill-color": FOUND_COLOUR, "fill-opacity": 0.18 },
    },
    ...lots.map((p) =>
      layer(p, LOTS_SUFFIX, {
        type: "line",
        paint: { "line-color": FOUND_COLOUR, "line-width": 1, "line-opacity": 0.8 },
      }),
    ),
    // A white casing under the outline: it reads over any zone colour.
    {
      id: "group-casing",
      type: "line",
      source: GROUPS_SOURCE,
      paint: { "line-color": "#ffffff", "line-width": ["interpolate", ["linear"], ["zoom"], 12, 3, 18, 6] },
    },
    {
      id: "group-line",
      type: "line",
      source: GROUPS_SOURCE,
      paint: { "line-color": FOUND_COLOUR, "line-width": ["interpolate", ["linear"], ["zoom"], 12, 1.5, 18, 3.5] },
    },
  ];
}

/** Which kind of group layer this is, for its lot filter: the groups' lots, their isolated neighbours, or neither. */
export function groupLayerKind(layerId: string): "lots" | "isolated" | null {
  if (layerId.endsWith(LOTS_SUFFIX)) return "lots";
  return ISOLATED_SUFFIXES.some((s) => layerId.endsWith(s)) ? "isolated" : null;
}

export const isIsolatedFill = (layerId: string) => layerId.endsWith("-isolated-fill");

/** The groups' outlines, each feature carrying its group's id. */
export function groupShapes(groups: readonly FoundGroup[]): GeoJSON.FeatureCollection {
  return {
    type: "FeatureCollection",
    features: groups.map((g) => ({ type: "Feature", geometry: g.geometry, properties: { group_id: g.group_id } })),
  };
}

/** The lot filters: every group's lots, and every isolated neighbour (a lot never both: it is in no group then). */
export function groupFilters(groups: readonly FoundGroup[]): {
  lots: FilterSpecification;
  isolated: FilterSpecification;
} {
  const lots = groups.flatMap((g) => g.lots.filter((l): l is string => l !== null));
  const isolated = groups.flatMap((g) => g.isolated.flatMap((n) => (n.lot_id === null ? [] : [n.lot_id])));
  return { lots: lotFilter(lots), isolated: lotFilter(isolated) };
}

/** Why each isolated neighbour is isolated, by lot id (a lot beside two groups says both). */
export function isolatedReasons(groups: readonly FoundGroup[]): Map<string, string> {
  const why = new Map<string, string>();
  for (const g of groups)
    for (const n of g.isolated) {
      if (n.lot_id === null) continue;
      const before = why.get(n.lot_id);
      why.set(n.lot_id, before && before !== n.why ? `${before} ${n.why}` : n.why);
    }
  return why;
}
