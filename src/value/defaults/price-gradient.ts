// The synthetic world's sale prices per m²: a gradient from the CBD, the nearest station and the coast, applied to each
// suburb's label point (docs/valuation.md, "Sale prices"). Synthetic: no sale was read.
import { haversineM } from "../../geo/distance.ts";
import { VALUE_FORMS, type ValueForm } from "../forms.ts";

const GPO: readonly [number, number] = [151.2093, -33.8688];

// The ocean shore from Palm Beach to Cronulla, read off a map (lon, lat): beaches and headlands, the harbour left out.
export const COAST: readonly (readonly [number, number])[] = [
  [151.3235, -33.599],
  [151.332, -33.636],
  [151.321, -33.656],
  [151.304, -33.713],
  [151.297, -33.753],
  [151.288, -33.797],
  [151.296, -33.819],
  [151.287, -33.835],
  [151.276, -33.891],
  [151.259, -33.921],
  [151.258, -33.95],
  [151.248, -34.0],
  [151.23, -34.033],
  [151.156, -34.055],
];

/** Apartment price per m² = BASE + CBD·e^(−d_cbd/12 km) + STATION·e^(−d_station/1 km) + COAST·e^(−d_coast/3 km). */
export const GRADIENT = { base: 5_500, cbd: 11_000, cbdKm: 12, station: 2_500, stationKm: 1, coast: 3_000, coastKm: 3 };

/** Each form's price over the apartment price at the same place. */
export const FORM_FACTOR: Readonly<Record<ValueForm, number>> = {
  house: 1.1,
  dual_occupancy: 1,
  townhouse: 0.95,
  low_rise_apartment: 0.95,
  apartment: 1,
  commercial: 0.55,
};

function segmentKm(p: readonly [number, number], a: readonly [number, number], b: readonly [number, number]): number {
  // Local equirectangular metres about p: exact enough over a few kilometres of shore.
  const kx = 111.195 * Math.cos((p[1] * Math.PI) / 180);
  const ky = 111.195;
  const ax = (a[0] - p[0]) * kx;
  const ay = (a[1] - p[1]) * ky;
  const bx = (b[0] - p[0]) * kx;
  const by = (b[1] - p[1]) * ky;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

export function coastKm(p: readonly [number, number]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < COAST.length; i++) {
    const a = COAST[i - 1];
    const b = COAST[i];
    if (a && b) best = Math.min(best, segmentKm(p, a, b));
  }
  return best;
}

const km = (a: readonly [number, number], b: readonly [number, number]) => haversineM(a[0], a[1], b[0], b[1]) / 1000;

/** The prices per m² of saleable area at a point, each form to the nearest $100. */
export function gradientPrices(
  label: readonly [number, number],
  stations: readonly (readonly [number, number])[],
): Record<ValueForm, number> {
  const g = GRADIENT;
  let station = Number.POSITIVE_INFINITY;
  for (const s of stations) station = Math.min(station, km(label, s));
  const apartment =
    g.base +
    g.cbd * Math.exp(-km(label, GPO) / g.cbdKm) +
    (Number.isFinite(station) ? g.station * Math.exp(-station / g.stationKm) : 0) +
    g.coast * Math.exp(-coastKm(label) / g.coastKm);
  const out = {} as Record<ValueForm, number>;
  for (const f of VALUE_FORMS) out[f] = Math.round((apartment * FORM_FACTOR[f]) / 100) * 100;
  return out;
}
