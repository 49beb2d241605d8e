// The JSON a frontend renders for one scored site, as batch rows, POST /parcels/score and reports carry it:
// self-contained, snake_case like the rest of the API.
import type { ParcelHit } from "../packs/spatial.ts";
import type { FeasibilityResult } from "../scoring/index.ts";

const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

/** Deep camelCase -> snake_case of object keys; arrays and primitives pass through. */
export function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), snakeKeys(x)]));
  return v;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The lot as a scored site shows it: id, pack, area, centroid, address and its GeoJSON feature. */
export function parcelPayload(parcel: ParcelHit) {
  return {
    lot_id: parcel.lotId,
    pack_id: parcel.packId,
    area_m2: Math.round(parcel.areaM2),
    centroid: [r6(parcel.centroid[0]), r6(parcel.centroid[1])],
    address: typeof parcel.props.address === "string" ? parcel.props.address : null,
    geojson: { type: "Feature", geometry: parcel.polygon, properties: { lot_id: parcel.lotId } },
  };
}

/** The model's answer for one site: score, rating, components, reasons and every figure behind them. */
export function scorePayload(result: FeasibilityResult) {
  return {
    score: result.score,
    rating: result.rating,
    components: snakeKeys(result.components),
    reasons: result.reasons,
    demo_data: result.demoData,
    feasibility: snakeKeys({ ...result, components: undefined, reasons: undefined }),
  };
}
