// Point and box queries over a layer's packed Hilbert R-tree (flatbush), walked directly on its typed arrays.
//
// flatbush's own search allocates a queue and a result array per call and visits every candidate; here a
// point lookup descends with a preallocated stack, tests the leaf box, then the polygon, and stops at the
// first hit. With features stored in leaf order (layer.indexOrder), leaves are visited in ascending feature
// order, so the first hit is also the lowest index: the answer flatbush + "lowest index wins" would give.
import { pointInFeature } from "../geo/pip.ts";
import type { Layer } from "./types.ts";

let stack = new Int32Array(512);

function push(sp: number, node: number, level: number): number {
  if (sp + 2 > stack.length) {
    const grown = new Int32Array(stack.length * 2);
    grown.set(stack);
    stack = grown;
  }
  stack[sp] = node;
  stack[sp + 1] = level;
  return sp + 2;
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
  const leaves4 = index.numItems * 4;
  const inOrder = layer.indexOrder;
  let best = -1;
  let sp = push(0, boxes.length - 4, bounds.length - 1);
  while (sp > 0) {
    sp -= 2;
    const node = stack[sp] as number;
    const level = stack[sp + 1] as number;
    const end = Math.min(node + nodeSize4, bounds[level] as number);
    if (node >= leaves4) {
      // Children pushed last-first so the lowest pops first: leaves come out in ascending order.
      for (let pos = end - 4; pos >= node; pos -= 4) {
        if (x < (boxes[pos] as number) || y < (boxes[pos + 1] as number) || x > (boxes[pos + 2] as number) || y > (boxes[pos + 3] as number)) continue;
        sp = push(sp, ids[pos >> 2] as number, level - 1);
      }
      continue;
    }
    for (let pos = node; pos < end; pos += 4) {
      if (x < (boxes[pos] as number) || y < (boxes[pos + 1] as number) || x > (boxes[pos + 2] as number) || y > (boxes[pos + 3] as number)) continue;
      if (inOrder) {
        if (pointInFeature(layer, pos >> 2, x, y)) return pos >> 2;
      } else {
        const i = ids[pos >> 2] as number;
        if ((best < 0 || i < best) && pointInFeature(layer, i, x, y)) best = i;
      }
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
  let sp = push(0, boxes.length - 4, bounds.length - 1);
  while (sp > 0) {
    sp -= 2;
    const node = stack[sp] as number;
    const level = stack[sp + 1] as number;
    const end = Math.min(node + nodeSize4, bounds[level] as number);
    for (let pos = node; pos < end; pos += 4) {
      if (maxX < (boxes[pos] as number) || maxY < (boxes[pos + 1] as number) || minX > (boxes[pos + 2] as number) || minY > (boxes[pos + 3] as number)) continue;
      if (node >= leaves4) sp = push(sp, ids[pos >> 2] as number, level - 1);
      else out.push(layer.indexOrder ? pos >> 2 : (ids[pos >> 2] as number));
    }
  }
  return out.sort((a, b) => a - b);
}
