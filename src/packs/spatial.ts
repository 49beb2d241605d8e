// Spatial queries over a list of packs (public and organisation-private, in the caller's priority order);
// overlay shares and zones on a parcel live in overlay.ts, with the prepared-lot functions the assessment uses.
//
// Layer names used by packs: suburbs, parcels, zoning, fsr, height, lot_size, flood, bushfire, heritage,
// transport (packs built before the controls were split have one "zones" layer carrying them).
import { featureAreaM2 } from "../geo/geodesic-area.ts";
import { bboxContains, bboxIntersects, featureBBox } from "../geo/bbox.ts";
import type { BBox } from "../geo/bbox.ts";
import { featureCentroid } from "../geo/centroid.ts";
import { featureToGeometry } from "../geo/columns.ts";
import { degreesForMeters, distanceToFeatureM, haversineM } from "../geo/distance.ts";
import type { AreaGeometry, PointGeometry } from "../geo/types.ts";
import { lotKey } from "./lot-id.ts";
import { featureAt, featuresInBox } from "./lookup.ts";
import { underHigherLot } from "./hidden-lots.ts";
import type { LotRecord } from "./paged/index.ts";
import type { Layer, Pack, Props } from "./types.ts";

export type ParcelHit = {
  packId: string;
  index: number;
  lotId: string | null;
  areaM2: number;
  polygon: AreaGeometry;
  bbox: BBox;
  centroid: [number, number];
  props: Props;
  // A lots pack's lot: its facts as precomputed at build time.
  record?: LotRecord;
};

export type FeatureHit = {
  packId: string;
  layer: string;
  index: number;
  geometry: AreaGeometry | PointGeometry;
  bbox: BBox;
  props: Props;
};

export type NearestHit = FeatureHit & { distanceM: number };

export { featureAt };
export { overlayCoverage, overlayShares, zonesOnParcel } from "./overlay.ts";
export type { OverlayCoverage, OverlayShare, ZoneHit } from "./overlay.ts";

export const PARCELS = "parcels";
// The zoning layer (zone code and name); packs from before the control layers call it "zones".
export const ZONES = "zoning";

/** The first pack whose bbox holds the point. */
export function packContaining(packs: readonly Pack[], lon: number, lat: number): Pack | null {
  for (const p of packs) if (bboxContains(p.bbox, lon, lat)) return p;
  return null;
}

function lotIdOf(props: Props): string | null {
  const v = props.lot_id;
  return typeof v === "string" ? v : null;
}

/** A parcels-layer feature as a ParcelHit. */
export function parcelFromFeature(pack: Pack, index: number): ParcelHit {
  const layer = pack.layers.get(PARCELS);
  if (layer?.kind !== "polygon") throw new Error(`pack ${pack.id} has no polygon parcels layer`);
  const props = layer.props(index);
  const record = layer.record?.(index);
  const hit: ParcelHit = {
    packId: pack.id,
    index,
    lotId: lotIdOf(props),
    // Precomputed from the source geometry, before its vertices were quantised.
    areaM2: record && record.facts.areaM2 > 0 ? record.facts.areaM2 : featureAreaM2(layer, index),
    polygon: featureToGeometry(layer, index),
    bbox: featureBBox(layer, index),
    centroid: featureCentroid(layer, index),
    props,
  };
  // Set, not spread into the literal: a spread there costs more than the rest of a warm lookup's hit.
  if (record) hit.record = record;
  return hit;
}

/** The cadastre lot containing the point (holes respected), from the first pack that has one. */
export function parcelAt(packs: readonly Pack[], lon: number, lat: number): ParcelHit | null {
  const before: Layer[] = [];
  for (const pack of packs) {
    const layer = pack.layers.get(PARCELS);
    if (!layer) continue;
    if (bboxContains(pack.bbox, lon, lat)) {
      const i = featureAt(layer, lon, lat);
      // A lot under a lot of a pack listed before it (an import over the world's, one's own) is not the answer: a
      // point on the import's road reserve finds no lot, as its map draws none there.
      if (i >= 0 && !underHigherLot(before, layer, i)) return parcelFromFeature(pack, i);
    }
    before.push(layer);
  }
  return null;
}

const lotIndexes = new WeakMap<Layer, Map<string, number>>();

// Built once per layer on first lookup; the first feature with a given lot id wins.
function lotIndex(layer: Layer): Map<string, number> {
  let map = lotIndexes.get(layer);
  if (map) return map;
  map = new Map();
  for (let i = 0; i < layer.count; i++) {
    const raw = lotIdOf(layer.props(i));
    if (raw === null) continue;
    const key = lotKey(raw);
    if (!map.has(key)) map.set(key, i);
  }
  lotIndexes.set(layer, map);
  return map;
}

/** A lot by any common spelling of its id ("Lot 12 DP 34567"). */
export function parcelByLot(packs: readonly Pack[], lotId: string): ParcelHit | null {
  // Keyed as the v2 lot-id index is, so a lot whose page that index found is found here too.
  const key = lotKey(lotId);
  for (const pack of packs) {
    const layer = pack.layers.get(PARCELS);
    if (!layer) continue;
    const i = lotIndex(layer).get(key);
    if (i !== undefined) return parcelFromFeature(pack, i);
  }
  return null;
}

function pointBBox(layer: Layer, i: number): BBox {
  const x = layer.coords[2 * i] as number;
  const y = layer.coords[2 * i + 1] as number;
  return [x, y, x, y];
}

function featureHit(pack: Pack, layer: Layer, i: number): FeatureHit {
  if (layer.kind === "point") {
    const b = pointBBox(layer, i);
    return {
      packId: pack.id,
      layer: layer.name,
      index: i,
      geometry: { type: "Point", coordinates: [b[0], b[1]] },
      bbox: b,
      props: layer.props(i),
    };
  }
  return {
    packId: pack.id,
    layer: layer.name,
    index: i,
    geometry: featureToGeometry(layer, i),
    bbox: featureBBox(layer, i),
    props: layer.props(i),
  };
}

/** Features of a layer whose bbox meets the box, in pack order then index, at most `limit`. */
export function featuresInBbox(packs: readonly Pack[], layerName: string, bbox: BBox, limit: number): FeatureHit[] {
  const out: FeatureHit[] = [];
  for (const pack of packs) {
    if (out.length >= limit) break;
    if (!bboxIntersects(pack.bbox, bbox)) continue;
    const layer = pack.layers.get(layerName);
    if (!layer?.index) continue;
    for (const i of featuresInBox(layer, bbox[0], bbox[1], bbox[2], bbox[3])) {
      if (out.length >= limit) break;
      out.push(featureHit(pack, layer, i));
    }
  }
  return out;
}

function distanceTo(layer: Layer, i: number, lon: number, lat: number): number {
  if (layer.kind === "point")
    return haversineM(lon, lat, layer.coords[2 * i] as number, layer.coords[2 * i + 1] as number);
  return distanceToFeatureM(layer, i, lon, lat);
}

// Every feature within radiusM, found through a box search (a box in degrees always covers the circle in metres).
function withinRadius(layer: Layer, lon: number, lat: number, radiusM: number, out: { i: number; d: number }[]): void {
  if (!layer.index) return;
  const { dLon, dLat } = degreesForMeters(radiusM * 1.01, lat);
  layer.index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat, (i) => {
    const d = distanceTo(layer, i, lon, lat);
    if (d <= radiusM) out.push({ i, d });
    return false;
  });
}

/**
 * The closest feature of a layer within `maxDistanceM` whose properties `accept` takes (ties broken as `nearest`
 * breaks them: pack order, then index), or null: a nearer feature it refuses does not hide it.
 */
export function nearestWhere(
  packs: readonly Pack[],
  layerName: string,
  lon: number,
  lat: number,
  maxDistanceM: number,
  accept: (props: Props) => boolean,
): NearestHit | null {
  // Most often the nearest feature is taken: one seed search, no radius scan.
  const [first] = nearest(packs, layerName, lon, lat, 1, maxDistanceM);
  if (first === undefined) return null;
  if (accept(first.props)) return first;
  let best: { pack: Pack; layer: Layer; i: number; d: number; order: number } | null = null;
  packs.forEach((pack, order) => {
    const layer = pack.layers.get(layerName);
    if (!layer?.index) return;
    const found: { i: number; d: number }[] = [];
    withinRadius(layer, lon, lat, maxDistanceM, found);
    for (const f of found) {
      // Packs come in order, so on equal distance a later pack, or a higher index in this one, loses.
      if (best !== null && (f.d > best.d || (f.d === best.d && (order > best.order || f.i > best.i)))) continue;
      if (!accept(layer.props(f.i))) continue;
      best = { pack, layer, i: f.i, d: f.d, order };
    }
  });
  if (best === null) return null;
  const b: { pack: Pack; layer: Layer; i: number; d: number } = best;
  return { ...featureHit(b.pack, b.layer, b.i), distanceM: b.d };
}

/** The k closest features of a layer by true distance in metres, optionally within `maxDistanceM`. */
export function nearest(
  packs: readonly Pack[],
  layerName: string,
  lon: number,
  lat: number,
  k: number,
  maxDistanceM = Infinity,
): NearestHit[] {
  if (k <= 0) return [];
  const all: { pack: Pack; layer: Layer; i: number; d: number; order: number }[] = [];
  packs.forEach((pack, order) => {
    const layer = pack.layers.get(layerName);
    if (!layer?.index) return;
    // Nearest-by-degrees gives k candidates; the farthest of them bounds the true k nearest.
    const seeds = layer.index.neighbors(lon, lat, k);
    let seedRadius = 0;
    for (const i of seeds) seedRadius = Math.max(seedRadius, distanceTo(layer, i, lon, lat));
    const radius = Math.min(maxDistanceM, seedRadius);
    const found: { i: number; d: number }[] = [];
    withinRadius(layer, lon, lat, radius, found);
    for (const f of found) all.push({ pack, layer, i: f.i, d: f.d, order });
  });
  all.sort((a, b) => a.d - b.d || a.order - b.order || a.i - b.i);
  return all.slice(0, k).map((h) => ({ ...featureHit(h.pack, h.layer, h.i), distanceM: h.d }));
}
