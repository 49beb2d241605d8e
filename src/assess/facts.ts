// Gathers what the feasibility model needs about one parcel from the packs (pure, no I/O).
//
// Zoning, FSR, height of building and minimum lot size are separate layers (as NSW publishes them), each
// with its own boundaries: every control is read from its own layer with the share of the lot it covers.
// Packs built before the split carry the controls on their zoning layer ("zones"); those still assess.
import type { Layer, Pack, Props } from "../packs/types.ts";
import { controlHits, lotOverlay, overlapsOn, unionShare, valueOverPart, ZONING_LAYERS } from "../packs/overlay.ts";
import type { ControlHits, Overlap } from "../packs/overlay.ts";
import { nearest, nearestWhere, type NearestHit, type ParcelHit } from "../packs/spatial.ts";
import { CENTRE_ZONES, normaliseZoneCode, STATION_MODES } from "../scoring/index.ts";
import type { ControlAreas, ControlShare, HeritageKind, NearestStop, SiteFacts, ZoneShare } from "../scoring/index.ts";
import { degreesForMeters, distanceToFeatureM } from "../geo/distance.ts";
import { existingFromProps, streetShape } from "./parcel-use.ts";
import { lgaOfLot, suburbOfLot } from "./suburb-of.ts";
import type { LotRecord } from "../packs/lot-record.ts";
import type { AreaGeometry } from "../geo/types.ts";

// Stops further than this are "no stop nearby" for scoring purposes.
const STOP_SEARCH_M = 5_000;
// Centres are searched to the outer edge of a low and mid rise housing area (and the half metre it rounds to).
const CENTRE_SEARCH_M = 800.5;

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
  // The main zone first: a lot's zone is the one over most of it, whatever order the layer stores.
  return [...groups.values()].sort((x, y) => y.share - x.share || x.code.localeCompare(y.code));
}

function controlShares(h: ControlHits): ControlShare[] {
  return h.overlaps.flatMap((o) => {
    const value = num(o.props[h.field]);
    return value === null ? [] : [{ value, share: o.share, label: text(o.props.label) }];
  });
}

/** A lots pack's stored lot as the score reads it: its facts, its council and its outline. */
export function recordFacts(record: LotRecord, polygon: AreaGeometry): SiteFacts {
  // Its council, whose LEP sets the dual occupancy and multi dwelling lot sizes the score applies.
  return { ...record.facts, lga: record.place.lga, polygon: polygon as SiteFacts["polygon"] };
}

export function siteFacts(packs: readonly Pack[], parcel: ParcelHit): SiteFacts {
  // A lots pack's lot carries its facts, computed by the kernels below when the pack was built.
  if (parcel.record) return recordFacts(parcel.record, parcel.polygon);
  const lot = lotOverlay(parcel.polygon);
  const zoning = overlapsOn(packs, lot, ZONING_LAYERS);
  const groups = zoneGroups(zoning);
  const hits = controlHits(packs, lot);
  const byKey = (key: ControlHits["key"]) => (hits ?? []).find((h) => h.key === key) as ControlHits;
  const controls: ControlAreas | undefined = hits
    ? {
        fsr: controlShares(byKey("fsr")),
        heightM: controlShares(byKey("heightM")),
        minLotSizeM2: controlShares(byKey("minLotSizeM2")),
      }
    : undefined;

  // Each zone shows the controls over its own part; older packs' zones carry them as props.
  const zones: ZoneShare[] = groups.map((g) => {
    const value = (key: ControlHits["key"], field: string) =>
      hits ? valueOverPart(lot, g.overlaps, byKey(key)) : num(g.overlaps[0]?.props[field]);
    return {
      code: g.code,
      name: g.name,
      share: Math.min(1, g.share),
      fsr: value("fsr", "fsr"),
      heightM: value("heightM", "height_m"),
      minLotSizeM2: value("minLotSizeM2", "min_lot_m2"),
    };
  });

  const flood = overlapsOn(packs, lot, "flood");
  const bushfire = overlapsOn(packs, lot, "bushfire");
  const heritage = overlapsOn(packs, lot, "heritage");
  const [lon, lat] = parcel.centroid;
  const [stop] = nearest(packs, "transport", lon, lat, 1, STOP_SEARCH_M);
  // The policies are about railway, metro and light rail stations: a nearer bus stop does not hide one.
  const station =
    stop && isStationProps(stop.props)
      ? stop
      : nearestWhere(packs, "transport", lon, lat, STOP_SEARCH_M, isStationProps);
  // Sorted, so the names read the same whatever order the pack stores its features in.
  const heritageNames = [
    ...new Set(heritage.map((o) => text(o.props.name)).filter((n): n is string => n !== null)),
  ].sort();

  // Demo data when any fact came from a layer its pack marks synthetic, or from a feature marked synthetic.
  const parcelLayer = packs.find((p) => p.id === parcel.packId)?.layers.get("parcels");
  const used: Overlap[] = [...zoning, ...(hits ?? []).flatMap((h) => h.overlaps), ...flood, ...bushfire, ...heritage];
  const demoData =
    (parcelLayer !== undefined && isSynthetic(parcelLayer, parcel.props)) ||
    used.some((o) => isSynthetic(o.layer, o.props)) ||
    (stop !== undefined && stopIsSynthetic(packs, stop)) ||
    (station !== null && stopIsSynthetic(packs, station));

  return {
    lotId: parcel.lotId,
    areaM2: parcel.areaM2,
    polygon: parcel.polygon as SiteFacts["polygon"],
    zones,
    ...(controls ? { controls } : {}),
    hazards: { flood: unionShare(lot, flood), bushfire: unionShare(lot, bushfire) },
    heritageShare: unionShare(lot, heritage),
    heritageNames,
    nearestStop: stop ? stopOf(stop) : null,
    demoData,
    heritageKind: heritageKindOf(heritage),
    nearestStation: station ? stopOf(station) : null,
    centreDistanceM: centreWithin(packs, lon, lat),
    lga: lgaOfLot(parcel, suburbOfLot(packs, parcel)),
    ...shapeAndUse(parcel),
  };
}

// The parcel's own fields: its frontage on the street and what stands on it, where it records them.
function shapeAndUse(parcel: ParcelHit): Pick<SiteFacts, "shape" | "existing"> {
  const shape = streetShape(parcel.props, parcel.polygon);
  const existing = existingFromProps(parcel.props);
  return { ...(shape ? { shape } : {}), ...(existing ? { existing } : {}) };
}

function isStationProps(props: Props): boolean {
  return STATION_MODES.includes((text(props.mode) ?? "").trim().toLowerCase());
}

function stopOf(hit: NearestHit): NearestStop {
  return {
    name: text(hit.props.name) ?? "Unnamed stop",
    mode: text(hit.props.mode) ?? "bus",
    distanceM: hit.distanceM,
  };
}

// A heritage feature whose class names a conservation area is one; any other is an item (as lot records tell them).
function heritageKindOf(heritage: readonly Overlap[]): HeritageKind {
  let item = false;
  let conservationArea = false;
  for (const o of heritage) {
    if (/conservation/i.test(text(o.props.class) ?? "")) conservationArea = true;
    else item = true;
  }
  return { item, conservationArea };
}

/** Metres from the point to the nearest E1, E2 or MU1 land within 800 m (0 inside it), else null. */
function centreWithin(packs: readonly Pack[], lon: number, lat: number): number | null {
  const { dLon, dLat } = degreesForMeters(CENTRE_SEARCH_M, lat);
  let best = Number.POSITIVE_INFINITY;
  for (const pack of packs) {
    for (const name of ZONING_LAYERS) {
      const layer = pack.layers.get(name);
      if (!layer?.index || layer.kind !== "polygon") continue;
      for (const i of layer.index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
        const code = text(layer.props(i).zone);
        // The codes as stored, as lots packs measure centre_m: a pack still carrying B zones has no centres.
        if (code === null || !CENTRE_ZONES.includes(normaliseZoneCode(code))) continue;
        best = Math.min(best, distanceToFeatureM(layer, i, lon, lat));
      }
    }
  }
  return best <= CENTRE_SEARCH_M ? best : null;
}

function stopIsSynthetic(packs: readonly Pack[], stop: NearestHit): boolean {
  const layer = packs.find((p) => p.id === stop.packId)?.layers.get(stop.layer);
  return layer !== undefined && isSynthetic(layer, stop.props);
}
