// What a height control lets a building hold: storeys from the height, then the floor space those storeys can have on
// the lot (an apartment envelope inside the Apartment Design Guide's setbacks, or a share of the site for low-rise forms).
import {
  FRONT_SETBACK_M,
  GROUND_COMMERCIAL_STOREY_M,
  LOW_RISE_SITE_COVERAGE,
  MAX_STOREYS,
  RESIDENTIAL_STOREY_M,
  ROOF_ALLOWANCE_M,
} from "./constants.ts";
import { floorQ, roundTo } from "./format.ts";
import { BUILDING_SEPARATION, separationAt } from "./rules/apartment-design-guide.ts";

/** Residential storeys under a height (null: no height mapped, no limit). */
export function residentialStoreys(heightM: number | null): number | null {
  if (heightM === null) return null;
  return Math.max(0, floorQ((heightM - ROOF_ALLOWANCE_M) / RESIDENTIAL_STOREY_M));
}

/** Residential storeys above a commercial ground floor under a height; -1 when not even the ground floor fits. */
export function storeysAboveShops(heightM: number | null): number | null {
  if (heightM === null) return null;
  const above = heightM - ROOF_ALLOWANCE_M - GROUND_COMMERCIAL_STOREY_M;
  return above < -1e-9 ? -1 : floorQ(above / RESIDENTIAL_STOREY_M);
}

/** Floor space low-rise forms may have: the storeys over the share of the site they may cover (null: no limit). */
export function lowRiseCapM2(areaM2: number, storeys: number | null): number | null {
  return storeys === null ? null : roundTo(areaM2 * LOW_RISE_SITE_COVERAGE * storeys);
}

export interface Envelope {
  /** Floor space of the storeys counted, whole m². */
  floorM2: number;
  /** Storeys counted: those the height allows, or (no height mapped) those the wanted floor space needs. */
  storeys: number;
}

// One storey's plate: inside the side setbacks on both sides and the front and rear setbacks (`sides` false: built to
// the side boundaries and the street, as a centre's shop-top building is, keeping only the rear separation).
function plate(widthM: number, depthM: number, storey: number, sides: boolean): number {
  const s = separationAt(storey);
  const w = sides ? widthM - 2 * s : widthM;
  const d = depthM - s - (sides ? FRONT_SETBACK_M : 0);
  return w > 0 && d > 0 ? w * d : 0;
}

// From this storey on every plate has the last band's setback, so the same area.
const LAST_BAND_FROM = (BUILDING_SEPARATION.bands.at(-2)?.upToStoreys ?? 0) + 1;

/**
 * Floor space an apartment building can have on a lot `widthM` wide and `depthM` deep, storey `first` to `last`
 * (1 = the ground floor), each inside its Part 3F separation; `last` null (no height mapped): as many storeys as
 * `wantM2` needs. Plates only shrink going up, so an empty plate ends the building.
 */
export function apartmentEnvelope(
  widthM: number,
  depthM: number,
  first: number,
  last: number | null,
  wantM2: number,
  sides = true,
): Envelope {
  const top = last ?? MAX_STOREYS;
  let total = 0;
  let built = 0;
  for (let k = first; k <= top; k++) {
    if (last === null && total >= wantM2 - 1e-9) break;
    const p = plate(widthM, depthM, k, sides);
    if (p <= 0) break;
    if (k >= LAST_BAND_FROM) {
      // The rest at once: an unmapped height may need many storeys of one plate.
      const rest = top - k + 1;
      const n = last !== null ? rest : Math.min(rest, Math.ceil((wantM2 - total) / p - 1e-9));
      total += p * n;
      built += n;
      break;
    }
    total += p;
    built++;
  }
  // With a height, the storeys are those it allows, whether or not the upper plates hold anything.
  const storeys = last === null ? built : Math.max(0, last - first + 1);
  return { floorM2: roundTo(total), storeys };
}
