// The one walk of a flatbush's packed arrays, for v1 layers and v2 pages: package.json pins the layout it reads.
import type Flatbush from "flatbush";

/**
 * Leaves whose box meets a query box, one at a time in ascending leaf position (an item's place in the tree's leaf
 * order, not its id), so a caller wanting the first match stops there. Reused between walks: one allocation a caller.
 * The root is the last box; an inner box's id is where its children start (in floats); _levelBounds ends each level.
 */
export class LeafWalk {
  // Frames of (next box to look at, end of its group, level): a group is scanned only as far as its next box meeting
  // the query, whose subtree is walked before the rest of the group is looked at.
  private readonly stack: number[] = [];
  private sp = 0;
  private boxes: ArrayLike<number> = [];
  private ids: ArrayLike<number> = [];
  private bounds: readonly number[] = [];
  private nodeSize4 = 0;
  private minX = 0;
  private minY = 0;
  private maxX = 0;
  private maxY = 0;

  /** Begins a walk of `index` for [minX, minY, maxX, maxY]; any walk in progress is abandoned. */
  start(index: Flatbush, minX: number, minY: number, maxX: number, maxY: number): this {
    this.boxes = index._boxes;
    this.ids = index._indices;
    this.bounds = index._levelBounds;
    this.nodeSize4 = index.nodeSize * 4;
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    const root = this.boxes.length - 4;
    this.stack[0] = root;
    this.stack[1] = root + 4;
    this.stack[2] = this.bounds.length - 1;
    this.sp = 3;
    return this;
  }

  /** The next leaf position whose box meets the query (ascending), or -1 when there is none. */
  next(): number {
    const { stack, boxes, ids, bounds, nodeSize4, minX, minY, maxX, maxY } = this;
    let sp = this.sp;
    while (sp > 0) {
      let pos = stack[sp - 3] as number;
      const end = stack[sp - 2] as number;
      const level = stack[sp - 1] as number;
      while (
        pos < end &&
        (maxX < (boxes[pos] as number) ||
          maxY < (boxes[pos + 1] as number) ||
          minX > (boxes[pos + 2] as number) ||
          minY > (boxes[pos + 3] as number))
      )
        pos += 4;
      if (pos >= end) {
        sp -= 3;
        continue;
      }
      stack[sp - 3] = pos + 4;
      if (level === 0) {
        this.sp = sp;
        return pos >> 2;
      }
      const child = ids[pos >> 2] as number;
      stack[sp++] = child;
      stack[sp++] = Math.min(child + nodeSize4, bounds[level - 1] as number);
      stack[sp++] = level - 1;
    }
    this.sp = 0;
    return -1;
  }
}

const walk = new LeafWalk();

/** The id of the item at each leaf position (the order it was added), then the inner nodes' child starts. */
export function leafIds(index: Flatbush): Flatbush["_indices"] {
  return index._indices;
}

/** Four numbers a node, the leaves first in leaf position order: a scan of every leaf reads them in place. */
export function leafBoxes(index: Flatbush): Flatbush["_boxes"] {
  return index._boxes;
}

/** Makes each of the first `count` leaves its own id (items then stored in leaf order); returns the ids they had. */
export function renumberLeaves(index: Flatbush, count: number): Uint32Array {
  const ids = index._indices;
  const had = Uint32Array.from(ids.subarray(0, count));
  for (let i = 0; i < count; i++) ids[i] = i;
  return had;
}

/** Writes into `out` the leaf positions whose box meets [minX, minY, maxX, maxY], ascending; returns how many. */
export function leavesInBox(
  index: Flatbush,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: number[],
): number {
  walk.start(index, minX, minY, maxX, maxY);
  let n = 0;
  for (let pos = walk.next(); pos >= 0; pos = walk.next()) out[n++] = pos;
  return n;
}

/** As leavesInBox, but the items' ids (their order of `add`), in leaf order; returns how many. */
export function searchInto(
  index: Flatbush,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: number[],
): number {
  const n = leavesInBox(index, minX, minY, maxX, maxY, out);
  const ids = leafIds(index);
  for (let k = 0; k < n; k++) out[k] = ids[out[k] as number] as number;
  return n;
}

/** Sorts the first `n` entries of `xs` ascending in place (a point meets one to a few items). */
export function sortPrefix(xs: number[], n: number): void {
  for (let i = 1; i < n; i++) {
    const v = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && (xs[j] as number) > v) {
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = v;
  }
}
