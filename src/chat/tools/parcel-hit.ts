// A located parcel (by lot id or point) as the model names it, and as the map and the model see it.
import { z } from "zod";
import { parcelAt, parcelByLot, type ParcelHit } from "../../packs/spatial.ts";
import { type PackArea, pointArea } from "../../packs/request-pages.ts";
import type { Pack } from "../../packs/types.ts";
import { addressOf, point } from "./tool-areas.ts";
import { r1, type Feature } from "./map.ts";

export const lotIdField = z
  .string()
  .min(3)
  .max(60)
  .describe("Lot identifier in any common spelling: 'Lot 12 DP 34567', '12//DP34567', '5/3/DP758123'");

export interface ParcelLocator {
  lot_id?: string | undefined;
  lon?: number | undefined;
  lat?: number | undefined;
}

/** The pack pages a locator needs read. */
export function locatorAreas(input: ParcelLocator): PackArea[] {
  if (input.lot_id && input.lot_id.trim() !== "") return [{ lotId: input.lot_id }];
  return typeof input.lon === "number" && typeof input.lat === "number" ? [pointArea(input.lon, input.lat)] : [];
}

/** The parcel a lot id (any common spelling) or a point names, or a sentence saying why there is none. */
export function locateParcel(packs: readonly Pack[], input: ParcelLocator): ParcelHit | string {
  if (input.lot_id && input.lot_id.trim() !== "") {
    return parcelByLot(packs, input.lot_id) ?? `Lot "${input.lot_id.trim()}" matches no parcel in the data packs.`;
  }
  if (typeof input.lon === "number" && typeof input.lat === "number") {
    return parcelAt(packs, input.lon, input.lat) ?? `No parcel at (${input.lat}, ${input.lon}).`;
  }
  return "Give a lot_id, or lon and lat.";
}

export function hitFeature(hit: ParcelHit, extra: Record<string, unknown> = {}): Feature {
  return {
    type: "Feature",
    ...(hit.lotId ? { id: hit.lotId } : {}),
    geometry: hit.polygon,
    properties: {
      lot_id: hit.lotId,
      area_m2: r1(hit.areaM2),
      address: addressOf(hit.props),
      pack_id: hit.packId,
      ...extra,
    },
  };
}

export const isSyntheticLayer = (packs: readonly Pack[], packId: string, layer: string): boolean =>
  packs.find((p) => p.id === packId)?.layers.get(layer)?.synthetic ?? false;

/** What every lot answer starts with: the lot's identity, address, size and where it is. */
export function lotBasics(hit: ParcelHit) {
  return {
    lot_id: hit.lotId,
    address: addressOf(hit.props),
    area_m2: r1(hit.areaM2),
    centroid: point(hit.centroid),
    pack_id: hit.packId,
  };
}
