// What the workspace can ask of the map, without loading maplibre itself.
import type { BBox } from "../../../src/routes/schemas/geometry.ts";
import type { FoundGroup, FoundSite } from "./find/types.ts";
import type { Toggle } from "./style.ts";

/** [west, south, east, north] in degrees: the map's boxes are the API's. */
export type { BBox };

export interface MapController {
  fitBounds(bbox: BBox, maxZoom?: number): void;
  /** Moves to a place and no further out than where lots are drawn (z14); resolves once its tiles are drawn. */
  goTo(bbox: BBox, maxZoom: number): Promise<void>;
  /** How many lots are drawn in the view now. */
  lotsInView(): number;
  /** Scored sites, coloured by rating. */
  setSites(fc: GeoJSON.FeatureCollection): void;
  /** What the chat pointed at. */
  setHighlight(fc: GeoJSON.FeatureCollection): void;
  /** What Find sites found: rings when zoomed out, the lots themselves filled where lots are drawn. */
  setFound(sites: readonly FoundSite[]): void;
  /** Groups of adjoining lots Find sites combined: an outline each, their isolated neighbours hatched. */
  setGroups(groups: readonly FoundGroup[]): void;
  setSelected(geometry: GeoJSON.Geometry | null): void;
  setLayer(t: Toggle, on: boolean): void;
  viewport(): BBox;
}
