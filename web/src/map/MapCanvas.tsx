// The workspace's map view (loaded lazily: MapLibre is most of the page's JavaScript); pack tiles carry the bearer token.
import type { ErrorEvent, GeoJSONSource, MapMouseEvent, StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import { useEffect, useRef } from "react";
import type { BBox, MapController } from "./controller.ts";
import { foundPoints, lotFilter, lotIdsByPack, packOfFoundLayer } from "./find/layers.ts";
import { readHash, writeHash } from "./hash.ts";
import type { TileJson } from "./packs.ts";
import { hideMap, sharedMap, showMap } from "./shared.ts";
import { type Toggle, workspaceStyle } from "./style.ts";

export type MapCanvasProps = {
  packs: { id: string; layers: string[]; own: boolean; tilejson: TileJson | null }[];
  visible: Record<Toggle, boolean>;
  token: () => string | null;
  basemapStyleUrl: string | null;
  initialBounds: BBox;
  /** A pack shown from the Data page: the map opens on it rather than on the URL's view. */
  focus?: BBox | null;
  onReady: (c: MapController) => void;
  onPick: (lngLat: [number, number]) => void;
  onError: (message: string) => void;
};

const EMPTY: GeoJSON.FeatureCollection = { type: "FeatureCollection", features: [] };

export default function MapCanvas(props: MapCanvasProps) {
  const el = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;

  // The page's one map is shown here and given this workspace's style; later changes go through the controller.
  // biome-ignore lint/correctness/useExhaustiveDependencies: props are read once, at mount (a new pack list remounts)
  useEffect(() => {
    const into = el.current;
    if (!into) return;
    const origin = location.origin;
    const shared = sharedMap();
    const m = shared.map;
    let live = true;
    showMap(shared, into);
    m.setTransformRequest((url) => {
      const t = latest.current.token();
      return url.startsWith(`${origin}/tiles/`) && t ? { url, headers: { Authorization: `Bearer ${t}` } } : { url };
    });
    const onError = (e: ErrorEvent) => {
      const status = (e.error as { status?: number } | undefined)?.status;
      if (status === 401) latest.current.onError("Your session has ended. Sign in again to continue.");
      else console.warn("map:", e.error?.message ?? e);
    };
    const onClick = (e: MapMouseEvent) => latest.current.onPick([e.lngLat.lng, e.lngLat.lat]);
    const onMoveEnd = () => writeHash(m);
    const onHash = () => {
      const view = readHash();
      if (view) m.jumpTo(view);
    };
    m.on("error", onError);
    m.on("click", onClick);
    m.on("moveend", onMoveEnd);
    addEventListener("hashchange", onHash);
    const source = (id: string) => m.getSource(id) as GeoJSONSource | undefined;
    const controller: MapController = {
      fitBounds: (b, maxZoom = 17) => m.fitBounds(b, { padding: 48, maxZoom, duration: 600 }),
      setSites: (fc) => source("sites")?.setData(fc),
      setHighlight: (fc) => source("highlight")?.setData(fc),
      setFound: (sites) => {
        source("found")?.setData(foundPoints(sites));
        const ids = lotIdsByPack(sites);
        for (const { id } of m.getStyle().layers) {
          const pack = packOfFoundLayer(id);
          if (pack !== null) m.setFilter(id, lotFilter(ids.get(pack) ?? []));
        }
      },
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
    (async () => {
      let base: StyleSpecification | undefined;
      if (props.basemapStyleUrl)
        base = (await fetch(props.basemapStyleUrl)
          .then((r) => r.json())
          .catch(() => undefined)) as StyleSpecification | undefined;
      if (!live) return;
      // Ready once this style's tiles are drawn (idle cannot fire while a new style or its sources still load).
      m.once("idle", () => {
        if (!live) return;
        // The packs' attributions are long: start collapsed behind the (i) button.
        shared.el.querySelector(".maplibregl-ctrl-attrib")?.classList.remove("maplibregl-compact-show");
        latest.current.onReady(controller);
      });
      m.setStyle(workspaceStyle(origin, props.packs, props.visible, base));
      // A style equal to the one the kept map has changes nothing, and idle fires only after a frame: ask for one.
      m.triggerRepaint();
      const view = readHash();
      // Open on the focus itself: a flight there after ready fetched, then cancelled, its tiles on the way.
      if (props.focus) m.fitBounds(props.focus, { padding: 48, maxZoom: 18, animate: false });
      else if (view) m.jumpTo(view);
      else m.fitBounds(props.initialBounds, { animate: false });
    })();
    return () => {
      live = false;
      m.off("error", onError);
      m.off("click", onClick);
      m.off("moveend", onMoveEnd);
      removeEventListener("hashchange", onHash);
      hideMap(shared);
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
