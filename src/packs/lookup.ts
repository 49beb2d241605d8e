// Point and box queries over a layer's packed Hilbert R-tree (flatbush), walked directly on its typed arrays.
//
// flatbush's own search allocates a queue and a result array per call and visits every candidate; here a
// point lookup descends with a preallocated stack, tests the leaf box, then the polygon, and stops at the
// first hit. With features stored in leaf order (layer.indexOrder), leaves are visited in ascending feature
// order, so the first hit is also the lowest index: the answer flatbush + "lowest index wins" would give.
import { pointInFeature, pointInRing } from "../geo/pip.ts";
import { SIMPLE_FEATURE, VERTEX_MASK } from "./format.ts";
import type { Layer } from "./types.ts";

// Depth-first stack: at most nodeSize entries per level are pending, and a tree over 2^32 items has 9 levels.
const stack = new Int32Array(16 * 10 * 3);

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

/** Index of the polygon feature containing (x, y), or -1; the lowest index wins where features overlap. */
export function featureAt(layer: Layer, x: number, y: number): number {
  const index = layer.index;
  if (!index || layer.kind !== "polygon") return -1;
  // flatbush's packed arrays (typed in its d.ts): boxes of every node, then child pointers / leaf ids.
  const boxes = index._boxes as Float64Array;
  const ids = index._indices;
  const bounds = index._levelBounds;
  const nodeSize4 = index.nodeSize * 4;
  if (!layer.indexOrder) return lowestAt(layer, x, y, boxes, ids, bounds, nodeSize4, index.numItems * 4);
  // Each frame is (next box to look at, end of its group, level): a group is scanned only as far as the
  // first box holding the point, whose subtree is searched before the rest of the group is looked at.
  let sp = 0;
  const root = boxes.length - 4;
  stack[sp++] = root;
  stack[sp++] = root + 4;
  stack[sp++] = bounds.length - 1;
  while (sp > 0) {
    let pos = stack[sp - 3] as number;
    const end = stack[sp - 2] as number;
    const level = stack[sp - 1] as number;
    while (
      pos < end &&
      (x < (boxes[pos] as number) ||
        y < (boxes[pos + 1] as number) ||
        x > (boxes[pos + 2] as number) ||
        y > (boxes[pos + 3] as number))
    )
      pos += 4;
    if (pos >= end) {
      sp -= 3;
      continue;
    }
    stack[sp - 3] = pos + 4;
    if (level === 0) {
      if (contains(layer, pos >> 2, x, y)) return pos >> 2;
      continue;
    }
    const child = ids[pos >> 2] as number;
    stack[sp++] = child;
    stack[sp++] = Math.min(child + nodeSize4, bounds[level - 1] as number);
    stack[sp++] = level - 1;
  }
  return -1;
}

// Input-ordered layers (older packs): every candidate is tested and the lowest feature id kept.
function lowestAt(
  layer: Layer,
  x: number,
  y: number,
  boxes: Float64Array,
  ids: Uint16Array | Uint32Array,
  bounds: number[],
  nodeSize4: number,
  leaves4: number,
): number {
  let best = -1;
  let sp = 0;
  stack[sp++] = boxes.length - 4;
  stack[sp++] = bounds.length - 1;
  while (sp > 0) {
    sp -= 2;
    const node = stack[sp] as number;
    const level = stack[sp + 1] as number;
    const end = Math.min(node + nodeSize4, bounds[level] as number);
    for (let pos = node; pos < end; pos += 4) {
      if (
        x < (boxes[pos] as number) ||
        y < (boxes[pos + 1] as number) ||
        x > (boxes[pos + 2] as number) ||
        y > (boxes[pos + 3] as number)
      )
        continue;
      if (node >= leaves4) {
        stack[sp++] = ids[pos >> 2] as number;
        stack[sp++] = level - 1;
        continue;
      }
      const i = ids[pos >> 2] as number;
      if ((best < 0 || i < best) && contains(layer, i, x, y)) best = i;
    }
  }
  return best;
}

/** Feature indices whose boxes meet [minX, minY, maxX, maxY], ascending. */
export function featuresInBox(layer: Layer, minX: number, minY: number, maxX: number, maxY: number): number[] {
  const index = layer.index;
  if (!index) return [];
  const boxes = index._boxes as Float64Array;
  const ids = index._indices;
  const bounds = index._levelBounds;
  const nodeSize4 = index.nodeSize * 4;
  const leaves4 = index.numItems * 4;
  const out: number[] = [];
  const queue: number[] = [boxes.length - 4, bounds.length - 1];
  while (queue.length > 0) {
    const level = queue.pop() as number;
    const node = queue.pop() as number;
    const end = Math.min(node + nodeSize4, bounds[level] as number);
    for (let pos = node; pos < end; pos += 4) {
      if (
        maxX < (boxes[pos] as number) ||
        maxY < (boxes[pos + 1] as number) ||
        minX > (boxes[pos + 2] as number) ||
        minY > (boxes[pos + 3] as number)
      )
        continue;
      if (node >= leaves4) queue.push(ids[pos >> 2] as number, level - 1);
      else out.push(layer.indexOrder ? pos >> 2 : (ids[pos >> 2] as number));
    }
  }
  return out.sort((a, b) => a - b);
}
