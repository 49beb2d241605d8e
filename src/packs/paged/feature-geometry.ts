// A feature's GeoJSON-like geometry as a page stores it: polygons as given, a point as one polygon of one ring of one
// vertex, a line as one polygon whose rings are its parts; quantised to 1e-7 degree integers.
import type {
  AreaGeometry,
  LineStringGeometry,
  MultiLineStringGeometry,
  PointGeometry,
  Position,
} from "../../geo/types.ts";
import type { LayerKind } from "../pack-meta.ts";
import type { PageFeature } from "./page-columns.ts";
import { UNITS_PER_DEGREE, type Value } from "./schema.ts";

export type FeatureGeometry = AreaGeometry | PointGeometry | LineStringGeometry | MultiLineStringGeometry;
export type FeatureInput = { geometry: FeatureGeometry; values: readonly Value[] };

const KIND: Record<FeatureGeometry["type"], LayerKind> = {
  Polygon: "polygon",
  MultiPolygon: "polygon",
  Point: "point",
  LineString: "line",
  MultiLineString: "line",
};

// `open`: a closing vertex equal to the first is dropped (polygon rings are stored open); a line keeps its vertices.
function quantise(ring: readonly Position[], open: boolean): Int32Array {
  let n = ring.length;
  const first = ring[0];
  const last = ring[n - 1];
  if (open && n > 1 && first && last && first[0] === last[0] && first[1] === last[1]) n--;
  const out = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const p = ring[i] as Position;
    out[2 * i] = Math.round((p[0] as number) * UNITS_PER_DEGREE);
    out[2 * i + 1] = Math.round((p[1] as number) * UNITS_PER_DEGREE);
  }
  return out;
}

function polygonsOf(g: FeatureGeometry): Int32Array[][] {
  switch (g.type) {
    case "Polygon":
      return [g.coordinates.map((r) => quantise(r, true))];
    case "MultiPolygon":
      return g.coordinates.map((rings) => rings.map((r) => quantise(r, true)));
    case "Point":
      return [[quantise([g.coordinates], false)]];
    case "LineString":
      return [[quantise(g.coordinates, false)]];
    case "MultiLineString":
      return [g.coordinates.map((part) => quantise(part, false))];
  }
}

/** The feature ready for a page of a `kind` layer; a geometry of another kind, or one with no vertex, is refused. */
export function toPageFeature(f: FeatureInput, kind: LayerKind): PageFeature {
  const type = (f.geometry as { type?: unknown }).type;
  const got = typeof type === "string" ? KIND[type as FeatureGeometry["type"]] : undefined;
  if (got !== kind) throw new RangeError(`a ${String(type)} geometry in a ${kind} layer`);
  const polygons = polygonsOf(f.geometry);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const rings of polygons) {
    for (const r of rings) {
      for (let i = 0; i < r.length; i += 2) {
        const x = r[i] as number;
        const y = r[i + 1] as number;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (minX > maxX) throw new RangeError("feature has no vertices");
  return { polygons, values: f.values, minX, minY, maxX, maxY };
}

// Widens `box` [minX, minY, maxX, maxY] to hold these positions.
function widen(box: number[], ps: readonly Position[]): void {
  for (const p of ps) {
    const x = p[0] as number;
    const y = p[1] as number;
    if (x < (box[0] as number)) box[0] = x;
    if (x > (box[2] as number)) box[2] = x;
    if (y < (box[1] as number)) box[1] = y;
    if (y > (box[3] as number)) box[3] = y;
  }
}

/** The centre of the feature's box (a polygon's outer rings'), whose Hilbert index orders features into pages. */
export function centreOf(g: FeatureGeometry): [number, number] {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  switch (g.type) {
    case "Polygon":
      widen(box, g.coordinates[0] ?? []);
      break;
    case "MultiPolygon":
      for (const rings of g.coordinates) widen(box, rings[0] ?? []);
      break;
    case "Point":
      widen(box, [g.coordinates]);
      break;
    case "LineString":
      widen(box, g.coordinates);
      break;
    case "MultiLineString":
      for (const part of g.coordinates) widen(box, part);
      break;
  }
  return [((box[0] as number) + (box[2] as number)) / 2, ((box[1] as number) + (box[3] as number)) / 2];
}
