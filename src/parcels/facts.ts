// A parcel's facts as the map shows them: exactly the SiteFacts scoring reads, in the API's snake_case.
import { siteFacts } from "../assess/facts.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import type { ControlShare, SiteFacts } from "../scoring/index.ts";

const shares = (list: readonly ControlShare[]) => list.map((c) => ({ value: c.value, share: c.share, label: c.label }));

// Older packs carry the controls on their zones: each zone's value over its share.
function fromZones(facts: SiteFacts, key: "fsr" | "heightM" | "minLotSizeM2") {
  return facts.zones.flatMap((z) => {
    const value = z[key];
    return value === null ? [] : [{ value, share: z.share, label: null }];
  });
}

export function parcelFacts(packs: readonly Pack[], parcel: ParcelHit, facts: SiteFacts = siteFacts(packs, parcel)) {
  const control = (key: "fsr" | "heightM" | "minLotSizeM2") =>
    facts.controls ? shares(facts.controls[key]) : fromZones(facts, key);
  return {
    pack_id: parcel.packId,
    lot_id: parcel.lotId,
    address: typeof parcel.props.address === "string" ? parcel.props.address : null,
    geometry: parcel.polygon,
    area_m2: Math.round(parcel.areaM2 * 10) / 10,
    centroid: parcel.centroid,
    zones: facts.zones.map((z) => ({ code: z.code, name: z.name, share: z.share })),
    fsr: control("fsr"),
    height_m: control("heightM"),
    min_lot_size_m2: control("minLotSizeM2"),
    overlays: [
      { kind: "flood", share: facts.hazards.flood },
      { kind: "bushfire", share: facts.hazards.bushfire },
      { kind: "heritage", share: facts.heritageShare, names: facts.heritageNames },
    ],
    nearest_station: facts.nearestStop
      ? { name: facts.nearestStop.name, mode: facts.nearestStop.mode, distance_m: facts.nearestStop.distanceM }
      : null,
    demo_data: facts.demoData,
  };
}

export type ParcelFacts = ReturnType<typeof parcelFacts>;
