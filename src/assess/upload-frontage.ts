// An uploaded lot's frontage measured on the road reserves its cadastre leaves between lots (issue 50, item 4): an upload
// carries lots, not streets, so the street is read from the gaps between them (geo/reserve-frontage.ts).
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

/** The frontage of the upload's lot `i` on a road reserve between its lots, or null where it faces none it holds. */
export function uploadedReserveFrontageM(upload: Pack, i: number): number | null {
  const layer = upload.layers.get(PARCELS);
  if (layer?.kind !== "polygon" || !layer.index) return null;
  const [w, s, e, n] = featureBBox(layer, i);
  const { dLon, dLat } = degreesForMeters(RESERVE_MAX_M, (s + n) / 2);
  const lon0 = w;
  const lat0 = s;
  const kx = Math.cos((lat0 * Math.PI) / 180) * M_PER_DEG;
  const plane = (ring: readonly number[][]): XY[] =>
    ring.map((p) => [((p[0] as number) - lon0) * kx, ((p[1] as number) - lat0) * M_PER_DEG]);
  const others: XY[][] = [];
  for (const j of layer.index.search(w - dLon, s - dLat, e + dLon, n + dLat)) {
    if (j === i) continue;
    for (const ring of outerRings(featureToGeometry(layer, j))) others.push(plane(ring));
  }
  if (others.length === 0) return null;
  let best: number | null = null;
  for (const ring of outerRings(featureToGeometry(layer, i)))
    for (const m of reserveStretchesM(plane(ring), others)) if (best === null || m < best) best = m;
  return best;
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
