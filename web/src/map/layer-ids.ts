// The ids of the map's style layers; none while a new style loads (MapLibre's getStyle() is undefined until it has
// loaded), when the panels' drawn layers are drawn again once the map is ready.
import type { Map as MlMap, StyleSpecification } from "maplibre-gl";

export const layerIdsOf = (m: MlMap): string[] =>
  ((m.getStyle() as StyleSpecification | undefined)?.layers ?? []).map((l) => l.id);
