// Finds the lot a map request names, by point or by lot id; a miss says which way it missed.
import { NotFoundError } from "../errors.ts";
import { parcelAt, parcelByLot, type ParcelHit } from "../packs/spatial.ts";
import { type PackArea, pointArea } from "../packs/request-pages.ts";
import type { Pack } from "../packs/types.ts";

export type SiteRef = { lng: number; lat: number } | { lot_id: string };

/** The pack pages a site needs read. */
export function siteArea(site: SiteRef): PackArea {
  return "lot_id" in site ? { lotId: site.lot_id } : pointArea(site.lng, site.lat);
}

export function locateParcel(packs: readonly Pack[], site: SiteRef): ParcelHit {
  if ("lot_id" in site) {
    const hit = parcelByLot(packs, site.lot_id);
    if (!hit) throw new NotFoundError(`Lot not found: ${site.lot_id.trim().slice(0, 100)}`);
    return hit;
  }
  const hit = parcelAt(packs, site.lng, site.lat);
  if (!hit) throw new NotFoundError("No parcel at this point");
  return hit;
}
