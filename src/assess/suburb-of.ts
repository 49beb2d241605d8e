// The suburb and council a lot is in: the suburbs feature holding its label point (a point inside it), as a site search
// places it, else what the parcel itself records.
import { columnsFromGeometry } from "../geo/columns.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import { featureAt, type ParcelHit } from "../packs/spatial.ts";
import type { Pack, Props } from "../packs/types.ts";

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

export function suburbOf(packs: readonly Pack[], lon: number, lat: number): Props | null {
  for (const pack of packs) {
    const layer = pack.layers.get("suburbs");
    if (layer?.kind !== "polygon") continue;
    const i = featureAt(layer, lon, lat);
    if (i >= 0) return layer.props(i);
  }
  return null;
}

/** The suburbs feature holding the lot's label point; null where no suburbs layer covers it. */
export function suburbOfLot(packs: readonly Pack[], parcel: ParcelHit): Props | null {
  return suburbOf(packs, ...featureLabelPoint(columnsFromGeometry(parcel.polygon), 0));
}

/** The lot's local government area: its suburb's, else the one its parcel records; null where neither says. */
export function lgaOfLot(parcel: ParcelHit, suburb: Props | null): string | null {
  return text(suburb?.lga) ?? text(parcel.props.lga);
}
