// MapLibre with its worker served from /assets/ (the page's CSP allows 'self' workers), started once on import.
import * as maplibregl from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url";

maplibregl.setWorkerUrl(workerUrl);
// Imported in the background before sign-in: start the map's workers then, not when the first map is built.
maplibregl.prewarm();

export { maplibregl };
