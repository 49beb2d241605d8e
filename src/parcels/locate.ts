// One site named by a point or a lot id, found in the caller's packs, or a 404 that says which.
import { NotFoundError } from "../errors.ts";
import { type ParcelHit, parcelAt, parcelByLot } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";

export type SiteQuery = { lng: number; lat: number } | { lot_id: string };

export function locateSite(packs: readonly Pack[], site: SiteQuery): ParcelHit {
  if ("lot_id" in site) {
    const hit = parcelByLot(packs, site.lot_id);
    if (!hit) throw new NotFoundError(`Lot not found: ${site.lot_id.trim()}`);
    return hit;
  }
  const hit = parcelAt(packs, site.lng, site.lat);
  if (!hit) throw new NotFoundError("No parcel at this point");
  return hit;
}
