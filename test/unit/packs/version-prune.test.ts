import { describe, expect, it } from "vitest";
import { prunable } from "../../../src/packs/private/storage.ts";

const v = (n: number) => `versions/orgs/o/p@${String(n).padStart(3, "0")}.pack`;

describe("which kept versions a store prunes", () => {
  it("drops the oldest beyond the newest three", () => {
    expect(prunable([v(4), v(1), v(3), v(2), v(5)], 3, new Set())).toEqual([v(1), v(2)]);
  });

  it("keeps a version a queued publish may still read (younger than the minimum age), however many there are", () => {
    // Five quick re-uploads: every version is young, so none is pruned and the publishes between them all find theirs.
    const all = [1, 2, 3, 4, 5].map(v);
    expect(prunable(all, 3, new Set(all))).toEqual([]);
    expect(prunable(all, 3, new Set([v(2)]))).toEqual([v(1)]);
  });
});
