// A lot's precomputed record from overlay layers, by the same kernels a v1 pack is assessed with (build time only).
import { siteFacts } from "./facts.ts";
import { lgaOfLot, suburbOfLot } from "./suburb-of.ts";
import { degreesForMeters, distanceToFeatureM } from "../geo/distance.ts";
import { shownShape } from "../scoring/geometry.ts";
import { lotOverlay, overlapsOn } from "../packs/overlay.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { HERITAGE_AREA, HERITAGE_ITEM, type LotRecord } from "../packs/paged/index.ts";

// E1 Local Centre, E2 Commercial Centre and MU1 Mixed Use: the land a "distance to the nearest centre" is to.
export const CENTRE_ZONES: ReadonlySet<string> = new Set(["E1", "E2", "MU1"]);
// Searched out to this far; further is "no centre" (null).
const CENTRE_SEARCH_M = 60_000;

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** Metres from the point to the nearest centre-zoned land (0 inside it), or null beyond 60 km. */
export function centreDistanceM(packs: readonly Pack[], lon: number, lat: number): number | null {
  let best = Number.POSITIVE_INFINITY;
  // A box search covers every feature within its radius; a nearer one may lie beyond the box only when best > radius.
  for (let radius = 2_000; best > radius && radius <= CENTRE_SEARCH_M * 5; radius *= 5) {
    const { dLon, dLat } = degreesForMeters(radius, lat);
    for (const pack of packs) {
      for (const name of ["zoning", "zones"]) {
        const layer = pack.layers.get(name);
        if (!layer?.index || layer.kind !== "polygon") continue;
        for (const i of layer.index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
          const code = text(layer.props(i).zone);
          if (code === null || !CENTRE_ZONES.has(code)) continue;
          const d = distanceToFeatureM(layer, i, lon, lat);
          if (d < best) best = d;
        }
      }
    }
  }
  return Number.isFinite(best) && best <= CENTRE_SEARCH_M ? best : null;
}

function heritageKind(packs: readonly Pack[], parcel: ParcelHit): number {
  let kind = 0;
  for (const o of overlapsOn(packs, lotOverlay(parcel.polygon), "heritage")) {
    const cls = text(o.props.class) ?? "";
    kind |= /conservation/i.test(cls) ? HERITAGE_AREA : HERITAGE_ITEM;
  }
  return kind;
}

/**
 * Everything a lots pack stores about one lot, computed from the packs' overlay layers. `centres`: packs holding
 * every E1/E2/MU1 zone feature (a builder that keeps them apart searches only those for the centre distance).
 */
export function lotRecordFrom(packs: readonly Pack[], parcel: ParcelHit, centres: readonly Pack[] = packs): LotRecord {
  const { polygon: _polygon, ...facts } = siteFacts(packs, parcel);
  // Measured from the source geometry, before its vertices are quantised in the pack's pages.
  const shape = facts.shape ?? shownShape(parcel.polygon);
  const [lon, lat] = parcel.centroid;
  // A lot is in the suburb that holds its label point (a point inside it), as a site search places it.
  const suburb = suburbOfLot(packs, parcel);
  return {
    facts: { ...facts, shape },
    place: {
      address: text(parcel.props.address),
      suburb: text(suburb?.name) ?? text(parcel.props.suburb),
      lga: lgaOfLot(parcel, suburb),
      frontageM: shape.frontageM,
      centreM: centreDistanceM(centres, lon, lat),
      heritageKind: heritageKind(packs, parcel),
    },
  };
}
