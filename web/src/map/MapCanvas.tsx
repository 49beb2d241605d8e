// The MapLibre map (loaded lazily: it is most of the page's JavaScript); pack tiles carry the bearer token.
import * as maplibregl from "maplibre-gl";
import type { Map as MlMap, StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
// The worker is bundled with what it imports and served from /assets/ (the page's CSP allows 'self' workers).
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url";
import { useEffect, useRef } from "react";
import type { BBox, MapController } from "./controller.ts";
import type { TileJson } from "./packs.ts";
import { type Toggle, workspaceStyle } from "./style.ts";

export type MapCanvasProps = {
  packs: { id: string; layers: string[]; own: boolean; tilejson: TileJson | null }[];
  visible: Record<Toggle, boolean>;
  token: () => string | null;
  basemapStyleUrl: string | null;
  initialBounds: BBox;
  onReady: (c: MapController) => void;
  onPick: (lngLat: [number, number]) => void;
  onError: (message: string) => void;
};

const EMPTY: GeoJSON.FeatureCollection = { type: "FeatureCollection", features: [] };

maplibregl.setWorkerUrl(workerUrl);
// Imported in the background before sign-in: start the map's workers then, not when the first map is built.
maplibregl.prewarm();

export default function MapCanvas(props: MapCanvasProps) {
  const el = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;

  // The map is built once per mount; later changes go through the controller.
  // biome-ignore lint/correctness/useExhaustiveDependencies: props are read once, at construction
  useEffect(() => {
    if (!el.current) return;
    const origin = location.origin;
    let map: MlMap | undefined;
    let cancelled = false;
    (async () => {
      let base: StyleSpecification | undefined;
      if (props.basemapStyleUrl)
        base = (await fetch(props.basemapStyleUrl)
          .then((r) => r.json())
          .catch(() => undefined)) as StyleSpecification | undefined;
      if (cancelled || !el.current) return;
      const hasView = /^#\d/.test(location.hash);
      map = new maplibregl.Map({
        container: el.current,
        style: workspaceStyle(origin, props.packs, props.visible, base),
        hash: true,
        ...(hasView ? {} : { bounds: props.initialBounds }),
        attributionControl: { compact: true },
        transformRequest: (url) => {
          const t = latest.current.token();
          return url.startsWith(`${origin}/tiles/`) && t ? { url, headers: { Authorization: `Bearer ${t}` } } : { url };
        },
      });
      map.addControl(new maplibregl.NavigationControl({ showCompass: false }), "bottom-right");
      map.addControl(new maplibregl.ScaleControl({ unit: "metric" }), "bottom-left");
      map.on("error", (e) => {
        const status = (e.error as { status?: number } | undefined)?.status;
        if (status === 401) latest.current.onError("Your session has ended. Sign in again to continue.");
        else console.warn("map:", e.error?.message ?? e);
      });
      map.on("click", (e) => latest.current.onPick([e.lngLat.lng, e.lngLat.lat]));
      const m = map;
      const source = (id: string) => m.getSource(id) as maplibregl.GeoJSONSource | undefined;
      const controller: MapController = {
        fitBounds: (b, maxZoom = 17) => m.fitBounds(b, { padding: 48, maxZoom, duration: 600 }),
        setSites: (fc) => source("sites")?.setData(fc),
        setHighlight: (fc) => source("highlight")?.setData(fc),
        setSelected: (g) => source("selected")?.setData(g ? { type: "Feature", geometry: g, properties: {} } : EMPTY),
        setLayer: (t: Toggle, on: boolean) => {
          const ids = m
            .getStyle()
            .layers.map((l) => l.id)
            .filter((id) => matches(id, t));
          for (const id of ids) m.setLayoutProperty(id, "visibility", on ? "visible" : "none");
        },
        viewport: () => m.getBounds().toArray().flat() as BBox,
      };
      m.on("load", () => {
        // The packs' attributions are long: start collapsed behind the (i) button.
        el.current?.querySelector(".maplibregl-ctrl-attrib")?.classList.remove("maplibregl-compact-show");
        latest.current.onReady(controller);
      });
    })();
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, []);

  // MapLibre labels its canvas region "Map" itself.
  return <div ref={el} className="map-canvas" />;
}

function matches(layerId: string, t: Toggle): boolean {
  if (t === "overlays") return /-(flood|bushfire|heritage)$/.test(layerId);
  if (t === "stations") return layerId.endsWith("-transport");
  return layerId.endsWith(`-${t}`);
}
