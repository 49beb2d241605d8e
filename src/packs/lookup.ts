// Point and box queries over a layer's packed Hilbert R-tree (flatbush), through the one walker (flatbush-walk.ts).
//
// A point's candidates are the few leaves whose box holds it; the lowest feature index whose polygon holds the point
// wins, the answer flatbush + "lowest index wins" gives, whether features are stored in leaf order or input order.
import { pointInFeature, pointInRing } from "../geo/pip.ts";
import { LeafWalk, leafIds, leavesInBox, sortPrefix } from "./flatbush-walk.ts";
import { SIMPLE_FEATURE, VERTEX_MASK } from "./feature-vertices.ts";
import type { Layer } from "./types.ts";

// Candidates and the walk of one synchronous lookup (never re-entered), so a lookup allocates nothing.
const found: number[] = [];
const point = new LeafWalk();

// A single-ring lot is reached through one featureVertices load; anything else takes the general test.
function contains(layer: Layer, i: number, x: number, y: number): boolean {
  const fv = layer.featureVertices;
  if (fv !== null) {
    const a = fv[i] as number;
    if (a >= SIMPLE_FEATURE)
      return pointInRing(layer.coords, a - SIMPLE_FEATURE, (fv[i + 1] as number) & VERTEX_MASK, x, y);
  }
  return pointInFeature(layer, i, x, y);
}

// Turns leaf positions into feature indices, for a layer stored in input order (in leaf order a leaf is its feature).
function toFeatures(layer: Layer, out: number[], n: number): void {
  if (!layer.index) return;
  const ids = leafIds(layer.index);
  for (let k = 0; k < n; k++) out[k] = ids[out[k] as number] as number;
}

/** Index of the polygon feature containing (x, y), or -1; the lowest index wins where features overlap. */
export function featureAt(layer: Layer, x: number, y: number): number {
  const index = layer.index;
  if (!index || layer.kind !== "polygon") return -1;
  // Stored in leaf order, leaves come in ascending feature order: the first polygon holding the point answers.
  if (layer.indexOrder) {
    point.start(index, x, y, x, y);
    for (let i = point.next(); i >= 0; i = point.next()) if (contains(layer, i, x, y)) return i;
    return -1;
  }
  const n = leavesInBox(index, x, y, x, y, found);
  toFeatures(layer, found, n);
  // Ascending, so the first polygon holding the point is the answer and the rest are never tested.
  sortPrefix(found, n);
  for (let k = 0; k < n; k++) if (contains(layer, found[k] as number, x, y)) return found[k] as number;
  return -1;
}

/** Feature indices whose boxes meet [minX, minY, maxX, maxY], ascending. */
export function featuresInBox(layer: Layer, minX: number, minY: number, maxX: number, maxY: number): number[] {
  const index = layer.index;
  if (!index) return [];
  const out: number[] = [];
  const n = leavesInBox(index, minX, minY, maxX, maxY, out);
  if (layer.indexOrder) return out;
  toFeatures(layer, out, n);
  return out.sort((a, b) => a - b);
}
