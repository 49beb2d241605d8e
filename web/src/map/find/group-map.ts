// Groups drawn into the live map: their outlines and lot filters, the red hatch drawn from a small canvas when the
// map first asks for it, and why a hatched neighbour is isolated, on hover (a mouse) or on a tap (a phone).
import type { Map as MlMap, MapLayerMouseEvent, MapMouseEvent, GeoJSONSource, Popup } from "maplibre-gl";
import { maplibregl } from "../engine.ts";
import { layerIdsOf } from "../layer-ids.ts";
import {
  GROUPS_SOURCE,
  groupFilters,
  groupLayerKind,
  groupShapes,
  HATCH_IMAGE,
  ISOLATED_COLOUR,
  isIsolatedFill,
  isolatedReasons,
} from "./group-layers.ts";
import type { FoundGroup } from "./types.ts";

/**
 * Draws the hatch whenever the map asks for it: registered where the page's one map is made, since the workspace's
 * style (with the hatch's layer) is set before the Find sites view mounts, and a style image asked for with nobody
 * to answer is a console warning.
 */
export function provideHatch(m: MlMap): void {
  // MapLibre awaits the resolver before it counts an image as missing (the styleimagemissing event came too late).
  m.setMissingStyleImageResolver((id) => {
    if (id !== HATCH_IMAGE || m.hasImage(HATCH_IMAGE)) return;
    const img = hatch();
    if (img) m.addImage(HATCH_IMAGE, img, { pixelRatio: 2 });
  });
}

/** Red diagonal lines on clear, 12 px (6 CSS px at pixelRatio 2): tiles seamlessly, the lot's own colour shows through. */
function hatch(): ImageData | null {
  const size = 12;
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) return null;
  ctx.canvas.width = size;
  ctx.canvas.height = size;
  ctx.strokeStyle = ISOLATED_COLOUR;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  // The main diagonal and its two wrapped corners, so neighbouring tiles join into one line.
  for (const o of [-size, 0, size]) {
    ctx.moveTo(o, size);
    ctx.lineTo(o + size, 0);
  }
  ctx.stroke();
  return ctx.getImageData(0, 0, size, size);
}

export type GroupsOnMap = {
  set(groups: readonly FoundGroup[]): void;
  /** A tap or click on a hatched lot shows why it is isolated; true when it did (the click is then not a pick). */
  tapped(e: MapMouseEvent): boolean;
  remove(): void;
};

export function groupsOnMap(m: MlMap): GroupsOnMap {
  let reasons = new Map<string, string>();
  let hover: Popup | null = null;
  let tap: Popup | null = null;
  const isolatedFills = () => layerIdsOf(m).filter(isIsolatedFill);
  const whyAt = (e: MapMouseEvent): { lot: string; why: string } | null => {
    if (reasons.size === 0) return null;
    const layers = isolatedFills();
    if (layers.length === 0) return null;
    for (const f of m.queryRenderedFeatures(e.point, { layers })) {
      const lot = f.properties.lot_id;
      const why = typeof lot === "string" ? reasons.get(lot) : undefined;
      if (why && typeof lot === "string") return { lot, why };
    }
    return null;
  };
  const content = (hit: { lot: string; why: string }) => {
    const el = document.createElement("div");
    el.className = "isolated-why";
    const head = document.createElement("strong");
    head.textContent = `Isolated: ${hit.lot}`;
    const body = document.createElement("p");
    body.className = "isolated-why-text";
    body.textContent = hit.why;
    el.append(head, body);
    return el;
  };
  const onMove = (e: MapLayerMouseEvent | MapMouseEvent) => {
    const hit = whyAt(e);
    m.getCanvas().style.cursor = hit ? "help" : "";
    if (!hit) {
      hover?.remove();
      hover = null;
      return;
    }
    hover ??= new maplibregl.Popup({ closeButton: false, closeOnClick: false, className: "isolated-popup" });
    hover.setLngLat(e.lngLat).setDOMContent(content(hit)).addTo(m);
  };
  const onOut = () => {
    hover?.remove();
    hover = null;
  };
  m.on("mousemove", onMove);
  m.on("mouseout", onOut);
  return {
    set(groups) {
      reasons = isolatedReasons(groups);
      (m.getSource(GROUPS_SOURCE) as GeoJSONSource | undefined)?.setData(groupShapes(groups));
      const filters = groupFilters(groups);
      for (const id of layerIdsOf(m)) {
        const kind = groupLayerKind(id);
        if (kind) m.setFilter(id, filters[kind]);
      }
      tap?.remove();
      onOut();
    },
    tapped(e) {
      const hit = whyAt(e);
      if (!hit) return false;
      hover?.remove();
      hover = null;
      tap?.remove();
      // Above the finger unless near the top: on a phone the panel's sheet covers the map's lower part.
      const anchor = e.point.y > 180 ? "bottom" : "top";
      tap = new maplibregl.Popup({ closeButton: false, className: "isolated-popup", maxWidth: "260px", anchor })
        .setLngLat(e.lngLat)
        .setDOMContent(content(hit))
        .addTo(m);
      return true;
    },
    remove() {
      m.off("mousemove", onMove);
      m.off("mouseout", onOut);
      tap?.remove();
      onOut();
    },
  };
}
