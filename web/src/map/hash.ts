// The map's view in the URL (#zoom/lat/lng[/bearing]), as MapLibre's own hash option writes it: shared links and
// reloads open where the person was. Done here because the page's one map outlives the workspace view.
import type { Map as MlMap } from "maplibre-gl";

export type View = { zoom: number; center: [number, number]; bearing: number };

export function readHash(hash = location.hash): View | null {
  const [zoom, lat, lng, bearing = 0] = hash.replace(/^#/, "").split("/").map(Number);
  if (![zoom, lat, lng, bearing].every((n) => Number.isFinite(n)) || hash.length < 2) return null;
  return { zoom: zoom as number, center: [lng as number, lat as number], bearing };
}

export function writeHash(map: MlMap): void {
  const { lng, lat } = map.getCenter();
  const zoom = map.getZoom();
  // Enough decimals to place the centre within a pixel at this zoom.
  const digits = Math.max(0, Math.ceil((zoom * Math.LN2 + Math.log(512 / 360 / 0.5)) / Math.LN10));
  const bearing = Math.round(map.getBearing() * 10) / 10;
  const parts = [Math.round(zoom * 100) / 100, lat.toFixed(digits), lng.toFixed(digits), ...(bearing ? [bearing] : [])];
  history.replaceState(history.state, "", `${location.pathname}${location.search}#${parts.join("/")}`);
}
