// Our one tree walk (src/packs/flatbush-walk.ts) and the leaf scans of v2 pages read flatbush's packed arrays
// directly; package.json pins the minor version they were read from. These fail if that layout changes under us.
import Flatbush from "flatbush";
import { describe, expect, it } from "vitest";
import { LeafWalk, leavesInBox, searchInto } from "../../../src/packs/flatbush-walk.ts";

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function randomIndex(n: number, rand: () => number, nodeSize = 16): Flatbush {
  const index = new Flatbush(n, nodeSize, Float64Array);
  for (let i = 0; i < n; i++) {
    const x = rand() * 100;
    const y = rand() * 100;
    index.add(x, y, x + rand() * 3, y + rand() * 3);
  }
  index.finish();
  return index;
}

const byFlatbush = (index: Flatbush, box: [number, number, number, number]) =>
  index.search(...box).sort((a, b) => a - b);

describe("flatbush's packed layout, as our walker reads it", () => {
  it("leaves are the first numItems boxes, levels end at _levelBounds, ids are the order items were added", () => {
    const index = randomIndex(2_000, seeded(3));
    expect(index._boxes).toBeInstanceOf(Float64Array);
    expect(index._levelBounds[0]).toBe(2_000 * 4);
    expect(index._levelBounds.at(-1)).toBe(index._boxes.length);
    expect(index._indices).toBeInstanceOf(Uint16Array);
    // Every item appears once among the leaves.
    expect([...index._indices.subarray(0, 2_000)].sort((a, b) => a - b)).toEqual([...Array(2_000).keys()]);
  });

  it("searchInto finds exactly what flatbush's own search finds, over tree sizes from one item to 20,000", () => {
    const rand = seeded(7);
    const out: number[] = [];
    for (const [n, nodeSize] of [
      [1, 16],
      [5, 16],
      [16, 16],
      [17, 16],
      [2_000, 16],
      [2_000, 4],
      [20_000, 16],
    ] as const) {
      const index = randomIndex(n, rand, nodeSize);
      for (let q = 0; q < 200; q++) {
        const x = rand() * 100;
        const y = rand() * 100;
        const box: [number, number, number, number] = [x, y, x + rand() * 10, y + rand() * 10];
        const k = searchInto(index, ...box, out);
        expect(out.slice(0, k).sort((a, b) => a - b)).toEqual(byFlatbush(index, box));
      }
    }
  });

  it("leavesInBox gives leaf positions in ascending order, each naming (through _indices) an item flatbush finds", () => {
    const rand = seeded(11);
    const index = randomIndex(5_000, rand);
    const out: number[] = [];
    for (let q = 0; q < 200; q++) {
      const x = rand() * 100;
      const y = rand() * 100;
      const box: [number, number, number, number] = [x, y, x + rand() * 10, y + rand() * 10];
      const k = leavesInBox(index, ...box, out);
      const positions = out.slice(0, k);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(positions).size).toBe(k);
      expect(positions.map((p) => index._indices[p]).sort((a, b) => (a as number) - (b as number))).toEqual(
        byFlatbush(index, box),
      );
    }
  });

  it("a walk stopped at its first leaf and restarted elsewhere answers the new query alone", () => {
    const rand = seeded(13);
    const index = randomIndex(3_000, rand);
    const walk = new LeafWalk();
    const all: number[] = [];
    walk.start(index, 0, 0, 100, 100);
    expect(walk.next()).toBe(0);
    const box: [number, number, number, number] = [40, 40, 45, 45];
    walk.start(index, ...box);
    for (let p = walk.next(); p >= 0; p = walk.next()) all.push(index._indices[p] as number);
    expect(all.sort((a, b) => a - b)).toEqual(byFlatbush(index, box));
    expect(walk.next()).toBe(-1);
  });
});
