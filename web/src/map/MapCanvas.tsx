// The workspace's map view (loaded lazily: MapLibre is most of the page's JavaScript); pack tiles carry the bearer token.
import type { ErrorEvent, GeoJSONSource, MapMouseEvent, StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import { useEffect, useRef } from "react";
import type { BBox, MapController } from "./controller.ts";
import { groupsOnMap } from "./find/group-map.ts";
import { foundPoints, lotFilter, lotIdsByPack, packOfFoundLayer } from "./find/layers.ts";
import { firstView, LOTS_ZOOM } from "./first-view.ts";
import { readHash, writeHash } from "./hash.ts";
import { layerIdsOf } from "./layer-ids.ts";
import type { TileJson } from "./packs.ts";
import { hideMap, sharedMap, showMap } from "./shared.ts";
import { keepLoadedBase, type Toggle, workspaceStyle } from "./style.ts";

export type MapCanvasProps = {
  packs: { id: string; layers: string[]; own: boolean; tilejson: TileJson | null }[];
  visible: Record<Toggle, boolean>;
  token: () => string | null;
  basemapStyleUrl: string | null;
  /** The lots pack's box: the map opens inside it (first-view.ts). */
  initialBounds: BBox;
  /** A pack shown from the Data page: the map opens on it rather than on the URL's view. */
  focus?: BBox | null;
  onReady: (c: MapController) => void;
  onPick: (lngLat: [number, number]) => void;
  /** The suburb at the map's centre after each move (null where there is none), for the search box. */
  onPlace?: (name: string | null) => void;
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
    const groups = groupsOnMap(m);
    // A tap on an isolated neighbour says why it is isolated, rather than opening its facts.
    const onClick = (e: MapMouseEvent) => {
      if (!groups.tapped(e)) latest.current.onPick([e.lngLat.lng, e.lngLat.lat]);
    };
    const layerIds = (re: RegExp) => layerIdsOf(m).filter((id) => re.test(id));
    // The suburb under the centre: any zoom's suburb tiles answer, so the view's may still be loading.
    const suburbAtCentre = (): string | null => {
      const { width, height } = m.getCanvas().getBoundingClientRect();
      const suburbs = layerIds(/-suburbs-fill$/);
      const [hit] = suburbs.length > 0 ? m.queryRenderedFeatures([width / 2, height / 2], { layers: suburbs }) : [];
      return typeof hit?.properties.name === "string" ? hit.properties.name : null;
    };
    const namePlace = () => latest.current.onPlace?.(suburbAtCentre());
    const onMoveEnd = () => {
      writeHash(m);
      m.off("idle", namePlace);
      const name = suburbAtCentre();
      // None drawn there yet (a jump to somewhere new): ask again once its tiles are in.
      if (name) latest.current.onPlace?.(name);
      else m.once("idle", namePlace);
    };
    const onHash = () => {
      const view = readHash();
      if (view) m.jumpTo(view);
    };
    m.on("error", onError);
    m.on("click", onClick);
    m.on("moveend", onMoveEnd);
    addEventListener("hashchange", onHash);
    // A place is framed beside the search and layers panel, not under it (on a phone the panel folds away).
    const padding = () => {
      const map = into.getBoundingClientRect();
      const tools = into.parentElement?.querySelector(".map-tools")?.getBoundingClientRect();
      const left = tools && tools.width < map.width * 0.6 ? tools.right - map.left + 16 : 48;
      return { top: 48, bottom: 48, right: 48, left };
    };
    const source = (id: string) => m.getSource(id) as GeoJSONSource | undefined;
    const controller: MapController = {
      fitBounds: (b, maxZoom = 17) => m.fitBounds(b, { padding: padding(), maxZoom, duration: 600 }),
      goTo: (b, maxZoom) =>
        new Promise((resolve) => {
          const pad = padding();
          const zoom = Math.max(LOTS_ZOOM, m.cameraForBounds(b, { padding: pad, maxZoom })?.zoom ?? LOTS_ZOOM);
          m.once("moveend", () => m.once("idle", () => resolve()));
          const center: [number, number] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
          m.easeTo({ center, zoom, offset: [(pad.left - pad.right) / 2, 0], duration: 600 });
        }),
      lotsInView: () => {
        const lots = layerIds(/-parcels-fill$/);
        return lots.length > 0 ? m.queryRenderedFeatures({ layers: lots }).length : 0;
      },
      setSites: (fc) => source("sites")?.setData(fc),
      setHighlight: (fc) => source("highlight")?.setData(fc),
      setFound: (sites) => {
        source("found")?.setData(foundPoints(sites));
        const ids = lotIdsByPack(sites);
        for (const id of layerIdsOf(m)) {
          const pack = packOfFoundLayer(id);
          if (pack !== null) m.setFilter(id, lotFilter(ids.get(pack) ?? []));
        }
      },
      setGroups: (gs) => groups.set(gs),
      setSelected: (g) => source("selected")?.setData(g ? { type: "Feature", geometry: g, properties: {} } : EMPTY),
      setLayer: (t: Toggle, on: boolean) => {
        const ids = layerIdsOf(m).filter((id) => matches(id, t));
        for (const id of ids) m.setLayoutProperty(id, "visibility", on ? "visible" : "none");
      },
      viewport: () => m.getBounds().toArray().flat() as BBox,
    };
    // The first view is set now, before anything is awaited: the map's own moves meanwhile (a resize) write the hash.
    // Open on the focus itself: a flight there after ready fetched, then cancelled, its tiles on the way.
    if (props.focus) m.fitBounds(props.focus, { padding: 48, maxZoom: 18, animate: false });
    else m.jumpTo(firstView(props.initialBounds));
    // Issue 51's "usable": the first frame that drew lots of this workspace's lots packs (npm run bench -- map-ready
    // waits for data-lots="drawn"); the warm-up style's lots are not theirs.
    const lotLayers = props.packs.filter((p) => p.layers.includes("parcels")).map((p) => `${p.id}-parcels-fill`);
    const onRender = () => {
      const drawn = lotLayers.filter((id) => m.getLayer(id));
      if (drawn.length === 0 || m.queryRenderedFeatures({ layers: drawn }).length === 0) return;
      m.off("render", onRender);
      into.dataset.lots = "drawn";
    };
    const setStyle = (base?: StyleSpecification) => {
      if (!live) return;
      // Ready once this style's tiles are drawn (idle cannot fire while a new style or its sources still load).
      m.once("idle", () => {
        if (!live) return;
        // The packs' attributions are long: start collapsed behind the (i) button.
        shared.el.querySelector(".maplibregl-ctrl-attrib")?.classList.remove("maplibregl-compact-show");
        latest.current.onReady(controller);
      });
      // Offline, the basemap is given by URL, as the sign-in page's map was given it: that source and its glyphs stay.
      // A style still loading (a map built a frame ago) cannot be diffed: it is replaced, which MapLibre would warn of.
      m.setStyle(workspaceStyle(origin, props.packs, props.visible, base), {
        diff: m.style?._loaded === true,
        transformStyle: keepLoadedBase,
      });
      m.on("render", onRender);
      // A style equal to the one the kept map has changes nothing, and idle fires only after a frame: ask for one.
      m.triggerRepaint();
    };
    if (props.basemapStyleUrl)
      fetch(props.basemapStyleUrl)
        .then((r) => (r.ok ? (r.json() as Promise<StyleSpecification>) : undefined))
        .catch(() => undefined)
        .then(setStyle);
    else setStyle();
    return () => {
      live = false;
      m.off("error", onError);
      m.off("click", onClick);
      groups.remove();
      m.off("moveend", onMoveEnd);
      m.off("idle", namePlace);
      m.off("render", onRender);
      removeEventListener("hashchange", onHash);
      hideMap(shared);
    };
  }, []);

  // MapLibre labels its canvas region "Map" itself.
  return <div ref={el} className="map-canvas" />;
}

function matches(layerId: string, t: Toggle): boolean {
  if (t === "overlays") return /-(flood|bushfire|heritage)(-line)?$/.test(layerId);
  if (t === "stations") return /-transport(-label)?$/.test(layerId);
  return layerId.endsWith(`-${t}`);
}
