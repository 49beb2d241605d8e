// One map for the page's life. Its WebGL context and compiled shaders are most of a first map's cost in software
// rendering, so it is built while the sign-in page waits, moved into the workspace, and kept across views.
import type { Map as MlMap } from "maplibre-gl";
import { maplibregl } from "./engine.ts";
import { WARM_VIEW, warmStyle } from "./warm.ts";
import { provideHatch } from "./find/group-map.ts";

export type SharedMap = { map: MlMap; el: HTMLDivElement };
let shared: SharedMap | undefined;

/** Out of sight and out of reach (inert, hidden from assistive technology), yet drawn, so its shaders compile. */
function park(el: HTMLDivElement): void {
  el.className = "map-holder map-parked";
  el.inert = true;
  el.setAttribute("aria-hidden", "true");
  document.body.append(el);
}

/**
 * The page's map, built on first use; `warm` draws every layer kind once first and, `offline`, loads the offline
 * basemap and its glyphs (the sign-in page asks for this).
 */
export function sharedMap(warm?: { offline: boolean }): SharedMap {
  if (shared) return shared;
  const el = document.createElement("div");
  park(el);
  const map = new maplibregl.Map({
    container: el,
    style: warm ? warmStyle(warm.offline) : { version: 8, sources: {}, layers: [] },
    ...WARM_VIEW,
    attributionControl: { compact: true },
  });
  provideHatch(map);
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), "bottom-right");
  map.addControl(new maplibregl.ScaleControl({ unit: "metric" }), "bottom-left");
  // Unseen canvases are never composited, so their draws wait in the GPU's queue: read one pixel to have them run now.
  if (warm)
    map.once("idle", () => {
      const gl = map.getCanvas().getContext("webgl2");
      gl?.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      el.dataset.warm = "ready";
    });
  shared = { map, el };
  return shared;
}

/** Shows the map inside `into`, sized to it. */
export function showMap(s: SharedMap, into: HTMLElement): void {
  s.el.className = "map-holder";
  s.el.inert = false;
  s.el.removeAttribute("aria-hidden");
  into.append(s.el);
  s.map.resize();
}

export function hideMap(s: SharedMap): void {
  park(s.el);
}
