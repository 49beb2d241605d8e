// How a set of pages is read (packs/paged/runs.ts): a tile's reads bounded by reading through the smallest gaps,
// never a read longer than the limit.
import { describe, expect, it } from "vitest";
import { planReads } from "../../../../src/packs/paged/runs.ts";

// Pages of `size` bytes each, back to back: page p starts at p * size.
const offsets = (pages: number, size = 100) => Float64Array.from({ length: pages + 1 }, (_, p) => p * size);

describe("planReads", () => {
  it("reads each run of adjacent pages once, gaps up to gapBytes read through", () => {
    const o = offsets(100);
    const runs = planReads(o, [1, 2, 3, 5, 9], { gapBytes: 100, maxReadBytes: 1e9 });
    expect(runs.map((r) => r.pages)).toEqual([[1, 2, 3, 5], [9]]);
    expect(runs.map((r) => [r.start, r.end])).toEqual([
      [100, 600],
      [900, 1000],
    ]);
  });

  it("with maxReads reads through the smallest gaps until that many reads remain", () => {
    const o = offsets(1000);
    // Gaps of 1, 3 and 40 pages: two reads leave the 40-page gap unread.
    const runs = planReads(o, [10, 12, 16, 57], { maxReads: 2, maxReadBytes: 1e9 });
    expect(runs.map((r) => r.pages)).toEqual([[10, 12, 16], [57]]);
    expect(planReads(o, [10, 12, 16, 57], { maxReads: 1, maxReadBytes: 1e9 })).toHaveLength(1);
  });

  it("never spans more than maxReadBytes: pages further apart than that stay separate reads", () => {
    const o = offsets(10_000);
    // Three parts of the file, each 1,000 pages (100,000 bytes) from the next, a read at most 50,000 bytes.
    const nos = [100, 101, 1100, 1101, 1102, 2100];
    const runs = planReads(o, nos, { maxReads: 2, maxReadBytes: 50_000 });
    expect(runs.map((r) => r.pages)).toEqual([[100, 101], [1100, 1101, 1102], [2100]]);
    for (const r of runs) expect(r.end - r.start).toBeLessThanOrEqual(50_000);
    // With a limit that reaches across one gap, two reads: the closer parts together.
    const two = planReads(o, [100, 101, 600, 2100], { maxReads: 2, maxReadBytes: 60_000 });
    expect(two.map((r) => r.pages)).toEqual([[100, 101, 600], [2100]]);
  });
});
