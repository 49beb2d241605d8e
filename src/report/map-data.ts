// What a site's map shows, read from the packs: the lot, its neighbours, zones, overlays and stops in view.
import polygonClipping from "polygon-clipping";
import type { Geom } from "polygon-clipping";
import type { AreaGeometry } from "../geo/types.ts";
import type { Pack } from "../packs/types.ts";
import { featuresInBbox, PARCELS, ZONES, type ParcelHit } from "../packs/spatial.ts";
import { EARTH_RADIUS_M } from "../geo/distance.ts";

export type OverlayKind = "flood" | "bushfire" | "heritage";
export const OVERLAY_KINDS: readonly OverlayKind[] = ["flood", "bushfire", "heritage"];

/** A view in lon/lat with the local metres-per-degree factors used to draw it to scale. */
export interface MapView {
  west: number;
  south: number;
  east: number;
  north: number;
  /** Metres per degree of longitude and latitude at the view's centre (equirectangular). */
  kx: number;
  ky: number;
  widthM: number;
  heightM: number;
}

export interface MapData {
  view: MapView;
  subject: AreaGeometry;
  lots: AreaGeometry[];
  zones: { geometry: AreaGeometry; code: string; name: string | null }[];
  overlays: { kind: OverlayKind; geometry: AreaGeometry; label: string }[];
  stops: { lon: number; lat: number; name: string; mode: string }[];
}

// The lot fills about this share of the view's longer side, leaving room for its neighbours.
const LOT_SHARE = 0.42;
const MIN_VIEW_M = 90;
const MAX_FEATURES = 600;
const DEG = Math.PI / 180;

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** A view `aspect` (width / height) wide, centred on the lot, in which the lot takes a fixed share. */
export function viewFor(parcel: Pick<ParcelHit, "bbox">, aspect: number): MapView {
  const [w, s, e, n] = parcel.bbox;
  const lat0 = (s + n) / 2;
  const lon0 = (w + e) / 2;
  const ky = EARTH_RADIUS_M * DEG;
  const kx = ky * Math.cos(lat0 * DEG);
  const lotW = (e - w) * kx;
  const lotH = (n - s) * ky;
  const widthM = Math.max(MIN_VIEW_M, lotW / LOT_SHARE, (lotH / LOT_SHARE) * aspect);
  const heightM = widthM / aspect;
  const dLon = widthM / kx / 2;
  const dLat = heightM / ky / 2;
  return { west: lon0 - dLon, south: lat0 - dLat, east: lon0 + dLon, north: lat0 + dLat, kx, ky, widthM, heightM };
}

// The part of an area inside the view, or null: legends then list only what can be seen.
function clipToView(g: AreaGeometry, view: MapView): AreaGeometry | null {
  const { west: w, south: s, east: e, north: n } = view;
  const frame: Geom = [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ];
  const clipped = polygonClipping.intersection(g.coordinates as Geom, frame);
  return clipped.length > 0 ? { type: "MultiPolygon", coordinates: clipped } : null;
}

export function mapData(packs: readonly Pack[], parcel: ParcelHit, aspect: number): MapData {
  const view = viewFor(parcel, aspect);
  const box: [number, number, number, number] = [view.west, view.south, view.east, view.north];
  const areas = (layer: string) =>
    featuresInBbox(packs, layer, box, MAX_FEATURES).filter(
      (f): f is typeof f & { geometry: AreaGeometry } => f.geometry.type !== "Point",
    );
  // Zones and overlays can be suburb-sized: only their visible part is kept and drawn.
  const visible = (layer: string) =>
    areas(layer).flatMap((f) => {
      const geometry = clipToView(f.geometry, view);
      return geometry ? [{ ...f, geometry }] : [];
    });
  const lots = areas(PARCELS)
    .filter((f) => !(f.packId === parcel.packId && f.index === parcel.index))
    .map((f) => f.geometry);
  const zones = visible(ZONES)
    .map((f) => ({ geometry: f.geometry, code: text(f.props.zone) ?? "", name: text(f.props.zone_name) }))
    .filter((z) => z.code !== "");
  const overlays = OVERLAY_KINDS.flatMap((kind) =>
    visible(kind).map((f) => ({
      kind,
      geometry: f.geometry,
      label: text(f.props.name) ?? text(f.props.category) ?? kind,
    })),
  );
  const stops = featuresInBbox(packs, "transport", box, 50).flatMap((f) =>
    f.geometry.type === "Point"
      ? [
          {
            lon: f.geometry.coordinates[0] as number,
            lat: f.geometry.coordinates[1] as number,
            name: text(f.props.name) ?? "Stop",
            mode: text(f.props.mode) ?? "bus",
          },
        ]
      : [],
  );
  return { view, subject: parcel.polygon, lots, zones, overlays, stops };
}
