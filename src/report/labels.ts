// Reads what a free-form score object says about its site (batch `site_result` objects, or anything else).
import type { ParcelGeometry } from "./geometry.ts";
import { coordinatesProblem } from "./geometry.ts";

export interface SuppliedSite {
  name: string | null;
  address: string | null;
  lotId: string | null;
  /** A group of adjoining lots scored as one site: a scored group's `lot_ids`, or a batch row's lot_ids cell. */
  lotIds?: string[];
  /** The score the client was given earlier, shown beside the recomputed one when they differ. */
  score: number | null;
  /** Where the object itself says the site is, for sites without a paired geometry. */
  geometry: ParcelGeometry | null;
}

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);

function text(...candidates: unknown[]): string | null {
  for (const c of candidates) {
    if (typeof c === "string" && c.trim() !== "") return c.trim();
    if (typeof c === "number" && Number.isFinite(c)) return String(c);
  }
  return null;
}

function geometryOf(v: unknown): ParcelGeometry | null {
  const g = obj(v);
  if (!g) return null;
  // A GeoJSON Feature carries its geometry one level down.
  const geom = g.type === "Feature" ? obj(g.geometry) : g;
  if (!geom) return null;
  const type = geom.type;
  if (type !== "Point" && type !== "Polygon" && type !== "MultiPolygon") return null;
  if (coordinatesProblem(type, geom.coordinates)) return null;
  return { type, coordinates: geom.coordinates } as ParcelGeometry;
}

function centroidOf(v: unknown): ParcelGeometry | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  if (coordinatesProblem("Point", v)) return null;
  return { type: "Point", coordinates: [v[0] as number, v[1] as number] };
}

// A group's ids: an array of strings, or one cell of them separated by ";" (as a batch file gives them); null if none.
function idsOf(v: unknown): string[] | null {
  const raw = Array.isArray(v) ? v : typeof v === "string" ? v.split(";") : [];
  const ids = raw.flatMap((x) => (typeof x === "string" && x.trim() !== "" ? [x.trim().slice(0, 100)] : []));
  return ids.length > 0 ? ids.slice(0, 100) : null;
}

/** Name, address, lot id, earlier score and location, from the fields batch results and common exports use. */
export function readSupplied(score: Obj | undefined): SuppliedSite {
  if (!score) return { name: null, address: null, lotId: null, score: null, geometry: null };
  const input = obj(score.input) ?? {};
  const parcel = obj(score.parcel) ?? {};
  const s = score.score;
  const lotIds = idsOf(score.lot_ids) ?? idsOf(input.lot_ids);
  return {
    name: text(input.site_name, input.name, score.site_name, score.name, score.label),
    address: text(parcel.address, input.address, score.address),
    lotId: text(parcel.lot_id, score.lot_id, input.lot_id, input.lot_number, score.lot_number),
    score: typeof s === "number" && Number.isFinite(s) ? s : null,
    geometry: geometryOf(parcel.geojson) ?? geometryOf(score.geometry) ?? centroidOf(parcel.centroid),
    // Only where given, so a lot's supplied fields read as they always did.
    ...(lotIds ? { lotIds } : {}),
  };
}
