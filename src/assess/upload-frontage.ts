// An uploaded lot's frontage measured on the road reserves its cadastre leaves between lots (issue 50, item 4): an upload
// carries lots, not streets, so the street is read from the gaps between them (geo/reserve-frontage.ts).
import Flatbush from "flatbush";
import { featureBBox } from "../geo/bbox.ts";
import { featureToGeometry } from "../geo/columns.ts";
import { degreesForMeters, EARTH_RADIUS_M } from "../geo/distance.ts";
import { RESERVE_MAX_M, reserveStretchesM } from "../geo/reserve-frontage.ts";
import type { AreaGeometry } from "../geo/types.ts";
import { PARCELS } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import type { LotRecord } from "../packs/paged/index.ts";
import { roundTo } from "../scoring/format.ts";

type XY = [number, number];
const M_PER_DEG = (EARTH_RADIUS_M * Math.PI) / 180;

// Each part's outer ring: what faces a street (a hole's boundary faces the lot around it).
const outerRings = (g: AreaGeometry): number[][][] =>
  g.type === "Polygon" ? [g.coordinates[0] ?? []] : g.coordinates.map((p) => p[0] ?? []);

/** More lots than this within a road reserve's reach of a lot: not a street block (stacked or overlapping lots). */
export const MAX_NEIGHBOURS = 400;
// Boundary metres times the edges around them (about 100 m x 1,000 edges for a suburban lot): a few milliseconds.
const MAX_WORK = 2_000_000;

const perimeterOf = (ring: readonly XY[]): number =>
  ring.reduce((sum, p, k) => {
    const q = ring[(k + 1) % ring.length] as XY;
    return sum + Math.hypot(q[0] - p[0], q[1] - p[1]);
  }, 0);

/** Lots a frontage is read among: each one's outline and box, and an index of the boxes (flatbush's search). */
export interface LotSet {
  geometry(i: number): AreaGeometry;
  bbox(i: number): readonly [number, number, number, number];
  search(w: number, s: number, e: number, n: number): number[];
}

/** The frontage of lot `i` on a road reserve between the set's lots, or null where it faces none they hold. */
export function reserveFrontageAmong(lots: LotSet, i: number): number | null {
  const [w, s, e, n] = lots.bbox(i);
  const { dLon, dLat } = degreesForMeters(RESERVE_MAX_M, (s + n) / 2);
  const kx = Math.cos((s * Math.PI) / 180) * M_PER_DEG;
  const plane = (ring: readonly number[][]): XY[] =>
    ring.map((p) => [((p[0] as number) - w) * kx, ((p[1] as number) - s) * M_PER_DEG]);
  const near = lots.search(w - dLon, s - dLat, e + dLon, n + dLat);
  // Lots stacked on one spot (or a cadastre that dense) are no street block: estimated, never a quadratic build.
  if (near.length > MAX_NEIGHBOURS) return null;
  const others: XY[][] = [];
  let edges = 0;
  for (const j of near) {
    if (j === i) continue;
    for (const ring of outerRings(lots.geometry(j))) {
      others.push(plane(ring));
      edges += ring.length;
    }
  }
  if (others.length === 0) return null;
  const own = outerRings(lots.geometry(i));
  // Each boundary metre looks at every edge around it: a winding outline among many edges is estimated instead.
  const perimeterM = own.reduce((sum, ring) => sum + perimeterOf(plane(ring)), 0);
  if (perimeterM * edges > MAX_WORK) return null;
  let best: number | null = null;
  for (const ring of own)
    for (const m of reserveStretchesM(plane(ring), others)) if (best === null || m < best) best = m;
  return best;
}

/** The frontage of the upload's lot `i` on a road reserve between its lots, or null where it faces none it holds. */
export function uploadedReserveFrontageM(upload: Pack, i: number): number | null {
  const layer = upload.layers.get(PARCELS);
  const index = layer?.kind === "polygon" ? layer.index : null;
  if (layer?.kind !== "polygon" || !index) return null;
  return reserveFrontageAmong(
    {
      geometry: (j) => featureToGeometry(layer, j),
      bbox: (j) => featureBBox(layer, j),
      search: (w, s, e, n) => index.search(w, s, e, n),
    },
    i,
  );
}

/** Each lot's frontage on a road reserve between the given lots (an imported cadastre's), null where none is found. */
export function reserveFrontagesOf(geometries: readonly AreaGeometry[]): (number | null)[] {
  if (geometries.length === 0) return [];
  const boxes = geometries.map((g) => {
    const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const ring of outerRings(g))
      for (const p of ring) {
        const x = p[0] as number;
        const y = p[1] as number;
        if (x < b[0]) b[0] = x;
        if (y < b[1]) b[1] = y;
        if (x > b[2]) b[2] = x;
        if (y > b[3]) b[3] = y;
      }
    return b;
  });
  const index = new Flatbush(geometries.length);
  for (const b of boxes) index.add(b[0], b[1], b[2], b[3]);
  index.finish();
  const lots: LotSet = {
    geometry: (j) => geometries[j] as AreaGeometry,
    bbox: (j) => boxes[j] as [number, number, number, number],
    search: (w, s, e, n) => index.search(w, s, e, n),
  };
  return geometries.map((_, i) => reserveFrontageAmong(lots, i));
}

/** The record with its frontage on the street where the upload's own fields gave none and a road reserve was found. */
export function withReserveFrontage(record: LotRecord, upload: Pack, i: number): LotRecord {
  const shape = record.facts.shape;
  if (!shape || shape.frontageBasis === "street") return record;
  const m = uploadedReserveFrontageM(upload, i);
  if (m === null) return record;
  const frontageM = roundTo(m, 1);
  return {
    facts: { ...record.facts, shape: { ...shape, frontageM, frontageBasis: "street" } },
    place: { ...record.place, frontageM },
  };
}
