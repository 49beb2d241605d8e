// Areas the tools work over (a suburb's boundary or a box), as the model names them, and the parcels inside them.
import { z } from "zod";
import { featureAreaM2 } from "../../geo/geodesic-area.ts";
import { bboxContains, featureBBox, type BBox } from "../../geo/bbox.ts";
import { featureCentroid } from "../../geo/centroid.ts";
import { type LotClip, lotClip } from "../../geo/clip.ts";
import { featureToGeometry } from "../../geo/columns.ts";
import { SUBURBS, geocode } from "../../geocode/gazetteer.ts";
import { stationNamed } from "../../geocode/stations.ts";
import { circlePolygon } from "../../geo/circle.ts";
import { haversineM } from "../../geo/distance.ts";
import type { PolygonGeometry } from "../../geo/types.ts";
import { pointInFeature } from "../../geo/pip.ts";
import { relate } from "../../geo/relate.ts";
import { featurePart } from "../../packs/overlay.ts";
import { PARCELS, ZONES, featureAt } from "../../packs/spatial.ts";
import type { PackArea } from "../../packs/request-pages.ts";
import type { Layer, Pack, Props } from "../../packs/types.ts";
import { BBoxInputSchema } from "../../routes/schemas/geometry.ts";
import { collection, r1, r6, type Feature, type FeatureCollection } from "./map.ts";

/** Parcels examined per request at most, so a box over a whole city stays cheap. */
export const MAX_SCAN = 5_000;

export const suburbField = z
  .string()
  .min(2)
  .max(100)
  .describe("Suburb name, optionally with a state: 'Epping' or 'Newtown, NSW'");

/** Around a named station with no distance given: the Low and Mid-Rise Housing policy's outer band. */
export const STATION_RADIUS_M = 800;

/** The input fields of every tool that works over an area. */
export const areaFields = {
  suburb: suburbField.optional(),
  station: z
    .string()
    .min(2)
    .max(100)
    .optional()
    .describe(
      `A railway, metro or light rail station's name ('Central', 'Town Hall'): the lots within station_within_m (default ${STATION_RADIUS_M} m) of it, across suburbs`,
    ),
  bbox: BBoxInputSchema.optional().describe(
    "[west, south, east, north] in WGS84 degrees; omit both suburb and bbox to use the map view",
  ),
};
export type AreaInput = z.infer<z.ZodObject<typeof areaFields>>;

export interface Area {
  /** "Epping, NSW" or "the map view". */
  label: string;
  suburb: string | null;
  bbox: BBox;
  contains(lon: number, lat: number): boolean;
}

export interface ParcelRef {
  pack: Pack;
  layer: Layer;
  index: number;
  lotId: string | null;
  props: Props;
  centroid: [number, number];
  areaM2: number;
}

function suburbArea(packs: readonly Pack[], name: string): Area | string {
  const hit = geocode(packs, name);
  if (!hit) return `Suburb not found: ${name.trim()}`;
  const label = hit.state ? `${hit.name}, ${hit.state}` : hit.name;
  const layer = packs.find((p) => p.id === hit.pack_id)?.layers.get(SUBURBS);
  const i = layer ? featureAt(layer, hit.center[0], hit.center[1]) : -1;
  // The boundary itself when the label point finds it; the box otherwise.
  const contains =
    layer && i >= 0
      ? (lon: number, lat: number) => bboxContains(hit.bbox, lon, lat) && pointInFeature(layer, i, lon, lat)
      : (lon: number, lat: number) => bboxContains(hit.bbox, lon, lat);
  return { label, suburb: hit.name, bbox: hit.bbox, contains };
}

/** The lots within a radius of a named station: a circle, and how the answer names it. */
export function stationCircle(
  packs: readonly Pack[],
  name: string,
  radiusM = STATION_RADIUS_M,
): { label: string; polygon: PolygonGeometry; bbox: BBox; contains(lon: number, lat: number): boolean } | string {
  const hit = stationNamed(packs, name);
  if (!hit) return `Station not found: ${name.trim()}`;
  const polygon = circlePolygon(hit.lon, hit.lat, radiusM);
  const ring = polygon.coordinates[0] as number[][];
  const xs = ring.map((c) => c[0] as number);
  const ys = ring.map((c) => c[1] as number);
  return {
    label: `the ${Math.round(radiusM)} m around ${hit.name} station`,
    polygon,
    bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    contains: (lon, lat) => haversineM(hit.lon, hit.lat, lon, lat) <= radiusM,
  };
}

/** A station or suburb when named, else the given box, else the request's box (the map view); else why not. */
export function resolveArea(
  packs: readonly Pack[],
  input: AreaInput & { station_within_m?: number },
  fallback: BBox | null,
): Area | string {
  if (input.station && input.station.trim() !== "") {
    const circle = stationCircle(packs, input.station, input.station_within_m);
    return typeof circle === "string" ? circle : { ...circle, suburb: null };
  }
  if (input.suburb && input.suburb.trim() !== "") return suburbArea(packs, input.suburb);
  const box = (input.bbox as BBox | undefined) ?? fallback;
  if (!box) return "Name a suburb or give a bbox: the request carried no map view to fall back on.";
  const label = input.bbox ? "the given box" : "the map view";
  return { label, suburb: null, bbox: box, contains: (lon, lat) => bboxContains(box, lon, lat) };
}

/** The pack pages an area tool needs read: the box of the area it will resolve to (none when it cannot). */
export function areaPages(base: readonly Pack[], input: AreaInput, fallback: BBox | null): PackArea[] {
  const area = resolveArea(base, input, fallback);
  return typeof area === "string" ? [] : [{ box: area.bbox }];
}

/** Parcels whose centroid lies in the area, pack priority order; a lot id seen in an earlier pack wins. */
export function parcelsIn(
  packs: readonly Pack[],
  area: Area,
  maxScan = MAX_SCAN,
): { parcels: ParcelRef[]; scanned: number; limited: boolean } {
  const parcels: ParcelRef[] = [];
  const seen = new Set<string>();
  let scanned = 0;
  for (const pack of packs) {
    const layer = pack.layers.get(PARCELS);
    if (!layer?.index || layer.kind !== "polygon") continue;
    const ids = layer.index.search(area.bbox[0], area.bbox[1], area.bbox[2], area.bbox[3]).sort((a, b) => a - b);
    for (const i of ids) {
      if (scanned >= maxScan) return { parcels, scanned, limited: true };
      scanned += 1;
      const centroid = featureCentroid(layer, i);
      if (!area.contains(centroid[0], centroid[1])) continue;
      const props = layer.props(i);
      const lotId = typeof props.lot_id === "string" ? props.lot_id : null;
      if (lotId !== null) {
        if (seen.has(lotId)) continue;
        seen.add(lotId);
      }
      // A lots pack's area was measured before its vertices were quantised.
      const areaM2 = layer.record?.(i).facts.areaM2 || featureAreaM2(layer, i);
      parcels.push({ pack, layer, index: i, lotId, props, centroid, areaM2 });
    }
  }
  return { parcels, scanned, limited: false };
}

/** Zone code at a point (the first pack with a zone there), or null. */
export function zoneAt(packs: readonly Pack[], lon: number, lat: number): string | null {
  for (const pack of packs) {
    const layer = pack.layers.get(ZONES);
    if (!layer) continue;
    const i = featureAt(layer, lon, lat);
    if (i >= 0) {
      const zone = layer.props(i).zone;
      return typeof zone === "string" ? zone : null;
    }
  }
  return null;
}

/**
 * Whether any feature of an overlay layer covers part of the parcel (more than rounding along a shared edge);
 * clips only where the cheap test cannot tell, as scoring measures overlaps (featurePart, src/packs/overlay.ts).
 */
export function touchesOverlay(packs: readonly Pack[], ref: ParcelRef, layerName: string): boolean {
  const b = featureBBox(ref.layer, ref.index);
  let lot: LotClip | undefined;
  for (const pack of packs) {
    const overlay = pack.layers.get(layerName);
    if (!overlay?.index || overlay.kind !== "polygon") continue;
    for (const j of overlay.index.search(b[0], b[1], b[2], b[3])) {
      const relation = relate(ref.layer, ref.index, overlay, j);
      if (relation === "inside") return true;
      if (relation === "disjoint") continue;
      lot ??= lotClip(ref.layer, ref.index);
      if (featurePart(lot, overlay, j)) return true;
    }
  }
  return false;
}

export const addressOf = (props: Props): string | null => (typeof props.address === "string" ? props.address : null);

export function parcelFeature(ref: ParcelRef, extra: Record<string, unknown> = {}): Feature {
  return {
    type: "Feature",
    ...(ref.lotId ? { id: ref.lotId } : {}),
    geometry: featureToGeometry(ref.layer, ref.index),
    properties: {
      lot_id: ref.lotId,
      area_m2: r1(ref.areaM2),
      address: addressOf(ref.props),
      pack_id: ref.pack.id,
      ...extra,
    },
  };
}

export function parcelCollection<T extends ParcelRef>(
  refs: readonly T[],
  extra: (ref: T) => Record<string, unknown> = () => ({}),
): FeatureCollection {
  return collection(refs.map((r) => parcelFeature(r, extra(r))));
}

/** True when any of these parcels comes from a layer its pack marks synthetic. */
export const anySynthetic = (refs: readonly { pack: Pack; layer: Layer }[]): boolean =>
  refs.some((r) => r.layer.synthetic);

export const point = (c: [number, number]): [number, number] => [r6(c[0]), r6(c[1])];
