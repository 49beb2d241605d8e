// Gathers what the feasibility model needs about one parcel from the packs (pure, no I/O).
import type { Pack } from "../packs/types.ts";
import { nearest, overlayCoverage, zonesOnParcel, type ParcelHit } from "../packs/spatial.ts";
import type { SiteFacts, ZoneShare } from "../scoring/index.ts";

// Stops further than this are "no stop nearby" for scoring purposes.
const STOP_SEARCH_M = 5_000;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

function isSynthetic(packs: readonly Pack[], packId: string, layer: string): boolean {
  return packs.find((p) => p.id === packId)?.layers.get(layer)?.synthetic ?? false;
}

export function siteFacts(packs: readonly Pack[], parcel: ParcelHit): SiteFacts {
  const zoneHits = zonesOnParcel(packs, parcel.polygon).filter((z) => z.zone !== null);
  const zones: ZoneShare[] = zoneHits.map((z) => ({
    code: z.zone as string,
    name: text(z.props.zone_name),
    share: z.share,
    fsr: num(z.props.fsr),
    heightM: num(z.props.height_m),
    minLotSizeM2: num(z.props.min_lot_m2),
  }));
  const flood = overlayCoverage(packs, parcel.polygon, "flood");
  const bushfire = overlayCoverage(packs, parcel.polygon, "bushfire");
  const heritage = overlayCoverage(packs, parcel.polygon, "heritage");
  const [stop] = nearest(packs, "transport", parcel.centroid[0], parcel.centroid[1], 1, STOP_SEARCH_M);
  const heritageNames = [
    ...new Set(
      heritage.categories.flatMap((c) =>
        c.features.map((f) => text(f.props.name)).filter((n): n is string => n !== null),
      ),
    ),
  ];
  // Demo data when any fact came from a layer its pack marks synthetic.
  const sources: [string, string][] = [
    [parcel.packId, "parcels"],
    ...zoneHits.map((z): [string, string] => [z.packId, "zones"]),
    ...[flood, bushfire, heritage].flatMap((o, k) =>
      o.categories.flatMap((c) =>
        c.features.map((f): [string, string] => [f.packId, ["flood", "bushfire", "heritage"][k] as string]),
      ),
    ),
    ...(stop ? [[stop.packId, "transport"] as [string, string]] : []),
  ];
  const demoData = sources.some(([packId, layer]) => isSynthetic(packs, packId, layer));
  return {
    lotId: parcel.lotId,
    areaM2: parcel.areaM2,
    polygon: parcel.polygon as SiteFacts["polygon"],
    zones,
    hazards: { flood: flood.share, bushfire: bushfire.share },
    heritageShare: heritage.share,
    heritageNames,
    nearestStop: stop
      ? {
          name: text(stop.props.name) ?? "Unnamed stop",
          mode: text(stop.props.mode) ?? "bus",
          distanceM: stop.distanceM,
        }
      : null,
    demoData,
  };
}
