// A lot's record as lotRecordFrom (src/assess/lot-record.ts) computes it, but with the centre search given only
// the centre zoning: the suburb's other zoning holds no E1, E2 or MU1, so the distance is the same, and the
// search no longer reads every zoning feature within kilometres of each lot. test/unit/world/facts.test.ts
// checks every lot of a small world against lotRecordFrom itself over all the overlays in one pack.
import { siteFacts } from "../../src/assess/facts.ts";
import { centreDistanceM } from "../../src/assess/lot-record.ts";
import { lotOverlay, overlapsOn } from "../../src/packs/overlay.ts";
import { HERITAGE_AREA, HERITAGE_ITEM, type LotRecord } from "../../src/packs/paged/lot-columns.ts";
import { featureAt, type ParcelHit } from "../../src/packs/spatial.ts";
import { measureLot } from "../../src/scoring/geometry.ts";
import type { Pack, Props } from "../../src/packs/types.ts";

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

function suburbOf(packs: readonly Pack[], lon: number, lat: number): Props | null {
  for (const pack of packs) {
    const layer = pack.layers.get("suburbs");
    if (layer?.kind !== "polygon") continue;
    const i = featureAt(layer, lon, lat);
    if (i >= 0) return layer.props(i);
  }
  return null;
}

function heritageKind(packs: readonly Pack[], parcel: ParcelHit): number {
  let kind = 0;
  for (const o of overlapsOn(packs, lotOverlay(parcel.polygon), "heritage")) {
    kind |= /conservation/i.test(text(o.props.class) ?? "") ? HERITAGE_AREA : HERITAGE_ITEM;
  }
  return kind;
}

/** The lot's record from `packs` (its overlays, stations, suburbs), its centre distance from `centres` alone. */
export function worldRecord(packs: readonly Pack[], centres: readonly Pack[], parcel: ParcelHit): LotRecord {
  const { polygon: _polygon, ...facts } = siteFacts(packs, parcel);
  const [lon, lat] = parcel.centroid;
  const suburb = suburbOf(packs, lon, lat);
  return {
    facts,
    place: {
      address: text(parcel.props.address),
      suburb: text(suburb?.name) ?? text(parcel.props.suburb),
      lga: text(suburb?.lga) ?? text(parcel.props.lga),
      frontageM: Math.round(measureLot(parcel.polygon).rectWidthM * 10) / 10,
      centreM: centreDistanceM(centres, lon, lat),
      heritageKind: heritageKind(packs, parcel),
    },
  };
}
