// How a lot overlaps the polygon layers of a list of packs: per-feature shares, unions, per-category shares.
//
//   lotOverlay(polygon): LotOverlay                                  the lot prepared once for every layer
//   overlapsOn(packs, lot, layerNames): Overlap[]                     each feature meeting the lot with its share
//   unionShare(lot, overlaps): number                                 share of the lot under any of them
//   overlapShare(a, b): number                                        share of the lot under both a and b
//   controlHits(packs, lot): ControlHits[] | null                     FSR, height and lot size areas on the lot
//   valueOverPart(lot, part, h): number | null                         the control value over most of a part
//   overlayShares / zonesOnParcel / overlayCoverage(packs, polygon, ...)   the same, from a GeoJSON lot
import polygonClipping from "polygon-clipping";
import type { Geom, MultiPolygon as PcMultiPolygon } from "polygon-clipping";
import { areaM2, featureAreaM2 } from "../geo/geodesic-area.ts";
import { bboxIntersects, featureBBox } from "../geo/bbox.ts";
import type { BBox } from "../geo/bbox.ts";
import { lotClip, meet, pieceArea, ringsInBox, unionArea } from "../geo/clip.ts";
import type { LotClip, Piece } from "../geo/clip.ts";
import { columnsFromGeometry, featureToGeometry } from "../geo/columns.ts";
import type { AreaGeometry } from "../geo/types.ts";
import { featuresInBox } from "./lookup.ts";
import type { Layer, Pack, Props } from "./types.ts";

// Shares below this are rounding noise along a shared boundary; within it of 1, the feature covers the lot.
const SLIVER = 1e-9;

export type LotOverlay = { clip: LotClip; bbox: BBox; polygon: AreaGeometry; areaM2: number };

export type Overlap = {
  pack: Pack;
  layer: Layer;
  index: number;
  props: Props;
  // The lot's part under the feature, and the feature's rings cut to the lot's box (for further overlaps).
  piece: Piece;
  rings: Piece;
  share: number;
};

export function lotOverlay(polygon: AreaGeometry): LotOverlay {
  const cols = columnsFromGeometry(polygon);
  return { clip: lotClip(cols, 0), bbox: featureBBox(cols, 0), polygon, areaM2: featureAreaM2(cols, 0) };
}

function shareOf(clip: LotClip, area: number): number {
  if (!(clip.area > 0)) return 0;
  const s = area / clip.area;
  return s < SLIVER ? 0 : s > 1 - SLIVER ? 1 : s;
}

/** Feature i's part of the lot, its rings cut to the lot's box, and its share; null when it covers none of it. */
export function featurePart(
  clip: LotClip,
  layer: Layer,
  i: number,
): { piece: Piece; rings: Piece; share: number } | null {
  const rings = ringsInBox(layer, i, clip.frame, clip.box);
  if (rings.rings.length === 0) return null;
  const piece = meet(clip.piece, rings, clip.windows);
  const share = shareOf(clip, pieceArea(piece));
  return share > 0 ? { piece, rings, share } : null;
}

/** Every feature of the named layers (first name a pack has wins) that covers part of the lot, pack order then index. */
export function overlapsOn(packs: readonly Pack[], lot: LotOverlay, layerNames: string | readonly string[]): Overlap[] {
  const names = typeof layerNames === "string" ? [layerNames] : layerNames;
  const { clip, bbox } = lot;
  const out: Overlap[] = [];
  for (const pack of packs) {
    if (!bboxIntersects(pack.bbox, bbox)) continue;
    const layer = names.map((n) => pack.layers.get(n)).find((l) => l !== undefined);
    if (layer?.kind !== "polygon" || !layer.index) continue;
    for (const i of featuresInBox(layer, bbox[0], bbox[1], bbox[2], bbox[3])) {
      const part = featurePart(clip, layer, i);
      if (part) out.push({ pack, layer, index: i, props: layer.props(i), ...part });
    }
  }
  return out;
}

/** Share of the lot under both a and b. */
export function overlapShare(lot: LotOverlay, a: Overlap, b: Overlap): number {
  if (a.share === 1) return b.share;
  if (b.share === 1) return a.share;
  return shareOf(lot.clip, pieceArea(meet(a.piece, b.rings)));
}

/** Share of the lot under any of the overlaps: overlapping features are unioned, never summed. */
export function unionShare(lot: LotOverlay, overlaps: readonly Overlap[]): number {
  if (overlaps.length === 0) return 0;
  if (overlaps.length === 1) return (overlaps[0] as Overlap).share;
  if (overlaps.some((o) => o.share === 1)) return 1;
  // Nested features (flood extents, an item inside a conservation area) add nothing: drop them first.
  const bySize = [...overlaps].sort((a, b) => b.share - a.share);
  const kept: Overlap[] = [];
  for (const o of bySize) if (!kept.some((k) => overlapShare(lot, o, k) >= o.share * (1 - 1e-9))) kept.push(o);
  if (kept.length === 1) return (kept[0] as Overlap).share;
  const area = unionArea(
    kept.map((k) => k.piece),
    kept.map((k) => k.rings),
    lot.clip.area * SLIVER,
  );
  if (area !== null) return shareOf(lot.clip, area);
  return shareOf(lot.clip, (fallbackUnionM2(lot, kept) / lot.areaM2) * lot.clip.area);
}

// Many mutually overlapping features (beyond the inclusion-exclusion budget): exact polygon union.
function fallbackUnionM2(lot: LotOverlay, overlaps: readonly Overlap[]): number {
  const parts = overlaps.map((o) =>
    polygonClipping.intersection(
      lot.polygon.coordinates as Geom,
      featureToGeometry(o.layer, o.index).coordinates as Geom,
    ),
  );
  const union: PcMultiPolygon = polygonClipping.union(parts[0] as PcMultiPolygon, ...parts.slice(1));
  return union.length === 0 ? 0 : areaM2({ type: "MultiPolygon", coordinates: union });
}

// ----- the GeoJSON-lot API kept for callers that hold a polygon rather than a prepared lot -----

export type OverlayShare = {
  category: string;
  share: number;
  areaM2: number;
  features: { packId: string; index: number; props: Props }[];
};

export type ZoneHit = {
  packId: string;
  index: number;
  zone: string | null;
  share: number;
  areaM2: number;
  props: Props;
};

export type OverlayCoverage = { share: number; areaM2: number; categories: OverlayShare[] };

// Packs built before the controls were split carry zoning (with its controls) in a layer named "zones".
export const ZONING_LAYERS = ["zoning", "zones"] as const;

// Each control's layer and the field holding its value (also the field older packs put on their zones).
export const CONTROL_LAYERS = [
  { key: "fsr", layer: "fsr", field: "fsr" },
  { key: "heightM", layer: "height", field: "height_m" },
  { key: "minLotSizeM2", layer: "lot_size", field: "min_lot_m2" },
] as const;
export type ControlKey = (typeof CONTROL_LAYERS)[number]["key"];
export type ControlHits = { key: ControlKey; field: string; overlaps: Overlap[] };

/** The areas of each control layer on the lot, or null when no pack over the lot has control layers (older packs). */
export function controlHits(packs: readonly Pack[], lot: LotOverlay): ControlHits[] | null {
  const has = packs.some((p) => bboxIntersects(p.bbox, lot.bbox) && CONTROL_LAYERS.some((c) => p.layers.has(c.layer)));
  return has
    ? CONTROL_LAYERS.map((c) => ({ key: c.key, field: c.field, overlaps: overlapsOn(packs, lot, c.layer) }))
    : null;
}

const numeric = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * The control value covering most of a part of the lot (given as the overlaps that make it up, which do
 * not overlap each other); an even split goes to the stricter value (lower FSR or height, larger lot).
 */
export function valueOverPart(lot: LotOverlay, part: readonly Overlap[], h: ControlHits): number | null {
  const stricter = (a: number, b: number) => (h.key === "minLotSizeM2" ? a > b : a < b);
  const whole = part.reduce((sum, z) => sum + z.share, 0) >= 1;
  const weights = new Map<number, number>();
  for (const c of h.overlaps) {
    const value = numeric(c.props[h.field]);
    if (value === null) continue;
    const w = whole ? c.share : part.reduce((sum, z) => sum + overlapShare(lot, z, c), 0);
    if (w > 0) weights.set(value, (weights.get(value) ?? 0) + w);
  }
  let best: number | null = null;
  let bestW = 0;
  for (const [value, w] of weights) {
    if (w > bestW + 1e-12 || (Math.abs(w - bestW) <= 1e-12 && best !== null && stricter(value, best))) {
      best = value;
      bestW = w;
    }
  }
  return best;
}

function categoryOf(layer: Layer, props: Props): string {
  const v = layer.categoryField ? props[layer.categoryField] : null;
  return v === null || v === undefined || v === "" ? layer.name : String(v);
}

/** Overlaps grouped by the layer's category field, each group unioned. */
export function categoryShares(lot: LotOverlay, overlaps: readonly Overlap[]): OverlayShare[] {
  const groups = new Map<string, Overlap[]>();
  for (const o of overlaps) {
    const cat = categoryOf(o.layer, o.props);
    const g = groups.get(cat);
    if (g) g.push(o);
    else groups.set(cat, [o]);
  }
  const out: OverlayShare[] = [];
  for (const [category, group] of groups) {
    const share = unionShare(lot, group);
    out.push({
      category,
      share,
      areaM2: share * lot.areaM2,
      features: group.map((g) => ({ packId: g.pack.id, index: g.index, props: g.props })),
    });
  }
  return out.sort((a, b) => b.share - a.share || a.category.localeCompare(b.category));
}

export function overlayShares(packs: readonly Pack[], parcelPolygon: AreaGeometry, layerName: string): OverlayShare[] {
  const lot = lotOverlay(parcelPolygon);
  return categoryShares(lot, overlapsOn(packs, lot, layerName));
}

/**
 * Every zone feature on the parcel with its share. With control layers, each zone's props also carry the
 * controls over its part of the lot (fsr, height_m, min_lot_m2), as older packs' zones did themselves.
 */
export function zonesOnParcel(packs: readonly Pack[], parcelPolygon: AreaGeometry): ZoneHit[] {
  const lot = lotOverlay(parcelPolygon);
  const controls = controlHits(packs, lot);
  return overlapsOn(packs, lot, ZONING_LAYERS)
    .map((o) => {
      const zone = o.props.zone;
      const props = controls
        ? { ...o.props, ...Object.fromEntries(controls.map((h) => [h.field, valueOverPart(lot, [o], h)])) }
        : o.props;
      return {
        packId: o.pack.id,
        index: o.index,
        zone: typeof zone === "string" ? zone : null,
        share: o.share,
        areaM2: o.share * lot.areaM2,
        props,
      };
    })
    .sort((a, b) => b.share - a.share || a.index - b.index);
}

/** Share of the parcel under any feature of an overlay layer: categories are unioned, not summed. */
export function overlayCoverage(
  packs: readonly Pack[],
  parcelPolygon: AreaGeometry,
  layerName: string,
): OverlayCoverage {
  const lot = lotOverlay(parcelPolygon);
  const overlaps = overlapsOn(packs, lot, layerName);
  const share = unionShare(lot, overlaps);
  return { share, areaM2: share * lot.areaM2, categories: categoryShares(lot, overlaps) };
}
