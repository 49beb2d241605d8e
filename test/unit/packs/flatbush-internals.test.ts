// Our tree walks (packs/lookup.ts, packs/paged/point-search.ts, packs/paged/page.ts) read flatbush's packed arrays
// directly; package.json pins the minor version they were read from. This fails if that layout changes under us.
import Flatbush from "flatbush";
import { describe, expect, it } from "vitest";

// The walk our code makes: the root is the last box; an inner box's id is where its children start (in floats);
// _levelBounds[level] ends each level (in floats); a leaf's id is the item's index as added.
function walk(index: Flatbush, box: [number, number, number, number]): number[] {
  const boxes = index._boxes as Float64Array;
  const ids = index._indices;
  const bounds = index._levelBounds;
  const found: number[] = [];
  const stack: [number, number][] = [[boxes.length - 4, bounds.length - 1]];
  while (stack.length > 0) {
    const [start, level] = stack.pop() as [number, number];
    const end = Math.min(start + index.nodeSize * 4, bounds[level] as number);
    for (let pos = start; pos < end; pos += 4) {
      const hit =
        box[0] <= (boxes[pos + 2] as number) &&
        box[1] <= (boxes[pos + 3] as number) &&
        box[2] >= (boxes[pos] as number) &&
        box[3] >= (boxes[pos + 1] as number);
      if (!hit) continue;
      if (level === 0) found.push(ids[pos >> 2] as number);
      else stack.push([ids[pos >> 2] as number, level - 1]);
    }
  }
  return found.sort((a, b) => a - b);
}

describe("flatbush's packed layout, as our walks read it", () => {
  it("finds what flatbush's own search finds, for 2,000 boxes and 200 queries", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const index = new Flatbush(2_000, 16, Float64Array);
    for (let i = 0; i < 2_000; i++) {
      const x = rand() * 100;
      const y = rand() * 100;
      index.add(x, y, x + rand() * 3, y + rand() * 3);
    }
    index.finish();
    expect(index._boxes).toBeInstanceOf(Float64Array);
    expect(index._levelBounds[0]).toBe(2_000 * 4);
    for (let q = 0; q < 200; q++) {
      const x = rand() * 100;
      const y = rand() * 100;
      const box: [number, number, number, number] = [x, y, x + rand() * 10, y + rand() * 10];
      expect(walk(index, box)).toEqual(index.search(...box).sort((a, b) => a - b));
    }
  });
});
