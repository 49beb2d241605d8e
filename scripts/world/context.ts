// What every suburb's generation shares: the seed, the suburbs, the indexed parks, water and rail corridors, the stations
// and the centre each station anchors.
import { type CentreKind, type Character, characterOf, stationCentre } from "./character.ts";
import { hash32, nameHash, unit } from "./hash-random.ts";
import { loadInputs, type Station, stationsNear, type Suburb, type WorldInputs } from "./inputs.ts";
import { PolygonSet } from "./polygon-set.ts";
import { areaM2 } from "../../src/geo/geodesic-area.ts";
import { pointInPolygon } from "../../src/geo/pip.ts";

export type WorldContext = {
  seed: number;
  suburbs: Suburb[];
  water: PolygonSet;
  parks: PolygonSet;
  // The surface rail corridors: railway land, never lots.
  rail: PolygonSet;
  // The parks large enough to be bushland reserves: the only parks that carry bushfire-prone land.
  bushland: PolygonSet;
  // The stations within reach of the world (5 km beyond its suburbs), with the centre each anchors.
  stations: Station[];
  centres: CentreKind[];
  // Per suburb (topology order): whether a station lies inside it.
  hasStation: boolean[];
};

// A park of 100 ha or more is bushland (a national park or bush reserve); a smaller one is a town park, no fire risk.
export const BUSHLAND_M2 = 1_000_000;

// Beyond the scoring's 5 km search, a station can be nobody's nearest.
const STATION_MARGIN_DEG = 0.06;

export function worldBox(suburbs: readonly Suburb[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of suburbs) {
    b[0] = Math.min(b[0], s.bbox[0]);
    b[1] = Math.min(b[1], s.bbox[1]);
    b[2] = Math.max(b[2], s.bbox[2]);
    b[3] = Math.max(b[3], s.bbox[3]);
  }
  return b;
}

/** The context for the whole topology (workers build it once; suburbs are chosen per task). */
export function makeContext(inputs: WorldInputs, seed: number): WorldContext {
  const stations = stationsNear(inputs.stations, worldBox(inputs.suburbs), STATION_MARGIN_DEG);
  return {
    seed,
    suburbs: inputs.suburbs,
    water: new PolygonSet(inputs.water),
    parks: new PolygonSet(inputs.parks),
    rail: new PolygonSet(inputs.rail),
    bushland: new PolygonSet(inputs.parks.filter((g) => areaM2(g) >= BUSHLAND_M2)),
    stations,
    centres: stations.map((s) => stationCentre(s.name, unit(seed, nameHash(s.name), 0x5ce))),
    hasStation: inputs.suburbs.map((sub) => {
      const inside = stationsNear(stations, sub.bbox, 0);
      return inside.length > 0 && inside.some((st) => pointInPolygon(sub.geometry, st.lon, st.lat));
    }),
  };
}

export function loadContext(seed: number, root = "."): WorldContext {
  return makeContext(loadInputs(root), seed);
}

/** The suburb's character in this world. */
export function characterIn(ctx: WorldContext, s: Suburb): Character {
  return characterOf(s, ctx.hasStation[s.index] === true);
}

/** The suburb's own seed for its draws. */
export function suburbSeed(ctx: WorldContext, s: Suburb): number {
  return hash32(ctx.seed, s.index, nameHash(s.name));
}
