// A saved search's area (a search_match alert's target) is held to an area alert's limit (docs/design.md section 12):
// a box or a polygon of at most 100 km²; a suburb as an area alert's (the packs must know it); an LGA only when its
// extent is that small, since an LGA is the one named area that can hold a whole region's lots.
import { NotFoundError, UnprocessableError } from "../errors.ts";
import { areaM2 } from "../geo/geodesic-area.ts";
import type { BBox } from "../geo/bbox.ts";
import { geocode } from "../geocode/gazetteer.ts";
import type { Pack } from "../packs/types.ts";
import { findLga } from "../search/search-area.ts";
import type { SearchQuery } from "../search/query.ts";

export const MAX_SEARCH_AREA_KM2 = 100;

// The authalic radius: a box's area on the sphere of the ellipsoid's area.
const R_KM = 6371.0072;
const RAD = Math.PI / 180;

/** The area of a [west, south, east, north] box on the ground, in km² (exact on the sphere, any size). */
export function boxAreaKm2(b: BBox): number {
  return R_KM * R_KM * (b[2] - b[0]) * RAD * Math.abs(Math.sin(b[3] * RAD) - Math.sin(b[1] * RAD));
}

const km2 = (n: number) => n.toLocaleString("en-AU", { maximumFractionDigits: 1, minimumFractionDigits: 1 });

function tooLarge(what: string, covers: number, loc: string[]): UnprocessableError {
  return new UnprocessableError(
    `A saved search's area may cover at most ${MAX_SEARCH_AREA_KM2} km² (${what} covers ${km2(covers)} km²): ` +
      "draw a smaller box or polygon, or save one search per suburb",
    ["body", "target", "search", "area", ...loc],
    "value_error",
  );
}

/** Refuses a saved search whose area is too large (422) or names a place the packs do not know (404). */
export function checkSearchArea(packs: readonly Pack[], q: SearchQuery): void {
  const a = q.area;
  if ("suburb" in a) {
    if (!geocode(packs, a.suburb)) throw new NotFoundError(`Suburb not found: ${a.suburb}`);
    return;
  }
  if ("lga" in a) {
    const lga = findLga(packs, a.lga);
    if (!lga) throw new NotFoundError(`LGA not found: ${a.lga}`);
    const covers = boxAreaKm2(lga.bbox);
    if (covers > MAX_SEARCH_AREA_KM2) throw tooLarge(`the LGA ${lga.name}'s extent`, covers, ["lga"]);
    return;
  }
  if ("bbox" in a) {
    const covers = boxAreaKm2(a.bbox);
    if (covers > MAX_SEARCH_AREA_KM2) throw tooLarge("this box", covers, ["bbox"]);
    return;
  }
  const covers = areaM2(a.polygon) / 1e6;
  if (covers > MAX_SEARCH_AREA_KM2) throw tooLarge("this polygon", covers, ["polygon"]);
}
