// A parcel's facts as the map shows them on a click: the same SiteFacts the scoring model reads, in snake_case.
import { siteFacts } from "./facts.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import type { PlaceReach } from "../scoring/types.ts";

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

const walked = (p: PlaceReach | null) =>
  p === null || p.walkingM === null
    ? null
    : { name: p.name, walking_m: Math.round(p.walkingM), straight_m: Math.round(p.straightM) };

/** A layer older than this is flagged beside the facts it gives (issue 56: a flood layer may lag a council's study). */
export const STALE_AFTER_MONTHS = 12;

/** Where each of the lot's facts came from, by pack layer, with its "as at" date; [] for packs that do not say. */
export function factSources(packs: readonly Pack[], parcel: ParcelHit, now: Date) {
  const provenance = packs.find((p) => p.id === parcel.packId)?.meta.provenance ?? [];
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - STALE_AFTER_MONTHS);
  const limit = cutoff.toISOString().slice(0, 10);
  return provenance.map((p) => ({
    layer: p.layer,
    service_layer: p.service_layer,
    source: p.source,
    attribution: p.attribution,
    as_at: p.as_at,
    fetched_at: p.fetched_at,
    older_than_12_months: p.as_at !== null && p.as_at < limit,
  }));
}

export function parcelFacts(packs: readonly Pack[], parcel: ParcelHit, now = new Date()) {
  const f = siteFacts(packs, parcel);
  const controls = (list: { value: number; share: number; label: string | null }[]) =>
    list.map((c) => ({ value: c.value, share: r4(c.share), label: c.label }));
  return {
    pack_id: parcel.packId,
    lot_id: parcel.lotId,
    address: typeof parcel.props.address === "string" ? parcel.props.address : null,
    area_m2: Math.round(parcel.areaM2),
    centroid: [r6(parcel.centroid[0]), r6(parcel.centroid[1])],
    geometry: parcel.polygon,
    zones: f.zones.map((z) => ({
      code: z.code,
      name: z.name,
      share: r4(z.share),
      fsr: z.fsr,
      height_m: z.heightM,
      min_lot_size_m2: z.minLotSizeM2,
    })),
    controls: f.controls
      ? {
          fsr: controls(f.controls.fsr),
          height_m: controls(f.controls.heightM),
          min_lot_size_m2: controls(f.controls.minLotSizeM2),
        }
      : null,
    overlays: { flood: r4(f.hazards.flood), bushfire: r4(f.hazards.bushfire), heritage: r4(f.heritageShare) },
    heritage_names: f.heritageNames,
    nearest_stop: f.nearestStop
      ? { name: f.nearestStop.name, mode: f.nearestStop.mode, distance_m: Math.round(f.nearestStop.distanceM) }
      : null,
    // The station the housing policies measure to (train, metro or light rail), which a nearer bus stop does not hide.
    nearest_station: f.nearestStation
      ? { name: f.nearestStation.name, mode: f.nearestStation.mode, distance_m: Math.round(f.nearestStation.distanceM) }
      : null,
    // On foot over the streets, as the lots pack measured them: the Low and Mid-Rise policy's distances (section 13).
    walks: f.reach
      ? { station: walked(f.reach.station), centre: walked(f.reach.centre) }
      : { station: null, centre: null },
    sources: factSources(packs, parcel, now),
    demo_data: f.demoData,
  };
}

export type ParcelFacts = ReturnType<typeof parcelFacts>;
