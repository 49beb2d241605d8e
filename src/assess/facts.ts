// Gathers what the feasibility model needs about one parcel from the packs (pure, no I/O).
//
// Zoning, FSR, height of building and minimum lot size are separate layers (as NSW publishes them), each
// with its own boundaries: every control is read from its own layer with the share of the lot it covers.
// Packs built before the split carry the controls on their zoning layer ("zones"); those still assess.
import { bboxIntersects } from "../geo/bbox.ts";
import type { Layer, Pack, Props } from "../packs/types.ts";
import { lotOverlay, overlapShare, overlapsOn, unionShare, ZONING_LAYERS } from "../packs/overlay.ts";
import type { LotOverlay, Overlap } from "../packs/overlay.ts";
import { nearest, type NearestHit, type ParcelHit } from "../packs/spatial.ts";
import type { ControlAreas, ControlShare, SiteFacts, ZoneShare } from "../scoring/index.ts";

// Stops further than this are "no stop nearby" for scoring purposes.
const STOP_SEARCH_M = 5_000;

// Each control layer, the pack field holding its value, and the older zoning field it replaces.
const CONTROL_LAYERS = [
  { key: "fsr", layer: "fsr", field: "fsr", legacy: "fsr" },
  { key: "heightM", layer: "height", field: "height_m", legacy: "height_m" },
  { key: "minLotSizeM2", layer: "lot_size", field: "min_lot_m2", legacy: "min_lot_m2" },
] as const;
type ControlKey = (typeof CONTROL_LAYERS)[number]["key"];

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

function isSynthetic(layer: Layer, props: Props): boolean {
  return layer.synthetic || (layer.syntheticField !== null && props[layer.syntheticField] === true);
}

type ZoneGroup = { code: string; name: string | null; share: number; overlaps: Overlap[] };

// Zone features of one code are parts of one zone on this lot (a layer's features do not overlap).
function zoneGroups(overlaps: readonly Overlap[]): ZoneGroup[] {
  const groups = new Map<string, ZoneGroup>();
  for (const o of overlaps) {
    const code = text(o.props.zone);
    if (code === null) continue;
    const g = groups.get(code);
    if (!g) groups.set(code, { code, name: text(o.props.zone_name), share: o.share, overlaps: [o] });
    else {
      g.share += o.share;
      g.overlaps.push(o);
      if (g.name === null) g.name = text(o.props.zone_name);
    }
  }
  return [...groups.values()];
}

type ControlHits = { key: ControlKey; field: string; overlaps: Overlap[] };

function controlShares(h: ControlHits): ControlShare[] {
  return h.overlaps.flatMap((o) => {
    const value = num(o.props[h.field]);
    return value === null ? [] : [{ value, share: o.share, label: text(o.props.label) }];
  });
}

// The value covering most of the zone's part of the lot (when the zone is the whole lot, most of the lot);
// an even split goes to the stricter value, as in the scoring.
function valueOverZone(lot: LotOverlay, zone: ZoneGroup, zoneCount: number, h: ControlHits): number | null {
  const stricter = (a: number, b: number) => (h.key === "minLotSizeM2" ? a > b : a < b);
  const weights = new Map<number, number>();
  for (const c of h.overlaps) {
    const value = num(c.props[h.field]);
    if (value === null) continue;
    const w = zoneCount === 1 ? c.share : zone.overlaps.reduce((sum, z) => sum + overlapShare(lot, z, c), 0);
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

export function siteFacts(packs: readonly Pack[], parcel: ParcelHit): SiteFacts {
  const lot = lotOverlay(parcel.polygon);
  const zoning = overlapsOn(packs, lot, ZONING_LAYERS);
  const groups = zoneGroups(zoning);
  const hasControlLayers = packs.some((p) => bboxIntersects(p.bbox, lot.bbox) && CONTROL_LAYERS.some((c) => p.layers.has(c.layer)));
  const controlHits: ControlHits[] = hasControlLayers ? CONTROL_LAYERS.map((c) => ({ key: c.key, field: c.field, overlaps: overlapsOn(packs, lot, c.layer) })) : [];
  const controls: ControlAreas | undefined = hasControlLayers
    ? { fsr: controlShares(controlHits[0] as ControlHits), heightM: controlShares(controlHits[1] as ControlHits), minLotSizeM2: controlShares(controlHits[2] as ControlHits) }
    : undefined;

  const zones: ZoneShare[] = groups.map((g) => {
    const legacy = (field: string) => num(g.overlaps[0]?.props[field]);
    const value = (k: number) => (hasControlLayers ? valueOverZone(lot, g, groups.length, controlHits[k] as ControlHits) : legacy(CONTROL_LAYERS[k]!.legacy));
    return { code: g.code, name: g.name, share: Math.min(1, g.share), fsr: value(0), heightM: value(1), minLotSizeM2: value(2) };
  });

  const flood = overlapsOn(packs, lot, "flood");
  const bushfire = overlapsOn(packs, lot, "bushfire");
  const heritage = overlapsOn(packs, lot, "heritage");
  const [stop] = nearest(packs, "transport", parcel.centroid[0], parcel.centroid[1], 1, STOP_SEARCH_M);
  // Sorted, so the names read the same whatever order the pack stores its features in.
  const heritageNames = [...new Set(heritage.map((o) => text(o.props.name)).filter((n): n is string => n !== null))].sort();

  // Demo data when any fact came from a layer its pack marks synthetic, or from a feature marked synthetic.
  const parcelLayer = packs.find((p) => p.id === parcel.packId)?.layers.get("parcels");
  const used: Overlap[] = [...zoning, ...controlHits.flatMap((h) => h.overlaps), ...flood, ...bushfire, ...heritage];
  const demoData =
    (parcelLayer !== undefined && isSynthetic(parcelLayer, parcel.props)) ||
    used.some((o) => isSynthetic(o.layer, o.props)) ||
    (stop !== undefined && stopIsSynthetic(packs, stop));

  return {
    lotId: parcel.lotId,
    areaM2: parcel.areaM2,
    polygon: parcel.polygon as SiteFacts["polygon"],
    zones,
    ...(controls ? { controls } : {}),
    hazards: { flood: unionShare(lot, flood), bushfire: unionShare(lot, bushfire) },
    heritageShare: unionShare(lot, heritage),
    heritageNames,
    nearestStop: stop ? { name: text(stop.props.name) ?? "Unnamed stop", mode: text(stop.props.mode) ?? "bus", distanceM: stop.distanceM } : null,
    demoData,
  };
}

function stopIsSynthetic(packs: readonly Pack[], stop: NearestHit): boolean {
  const layer = packs.find((p) => p.id === stop.packId)?.layers.get(stop.layer);
  return layer !== undefined && isSynthetic(layer, stop.props);
}
