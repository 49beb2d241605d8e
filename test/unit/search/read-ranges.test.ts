// One search, one ranges budget: each pack's reads are planned once, within what the packs before it left, and a
// search whose plans do not fit is refused before any page of any pack is read.
import { openPacks, pagedPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { clearRootMemo, MemorySource, PageCache, PagedPack } from "../../../src/packs/paged/index.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import type { SearchQuery } from "../../../src/search/query.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { packs } from "../chat/demo-packs.ts";

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const context = packs.filter((p) => p !== demo);
// Pages skipped by their summaries leave gaps between those read: several ranges.
const R4_IN_LGA: SearchQuery = { area: { lga: "Parramatta" }, filters: { zones: ["R4"] } };
let bytes: Uint8Array;
let n = 0;

function copies(k: number): { packs: VisiblePacks; sources: MemorySource[] } {
  const sources = Array.from({ length: k }, () => new MemorySource(`public/ranges-${n++}.pack`, bytes));
  const paged = sources.map((s) => new PagedPack(s, { cache: new PageCache() }));
  return { packs: openPacks([...context, ...paged]), sources };
}

beforeAll(async () => {
  // Small pages: an LGA spans dozens of them.
  bytes = await convertToLotsPack(demo, { context: packs, pageBytes: 2048 });
}, 60_000);

beforeEach(() => {
  clearRootMemo();
  clearSearchTables();
});

describe("a search's ranges budget", () => {
  it("is shared by its packs in order: the second pack's plan gets what the first left, else nothing is read", async () => {
    const one = await searchSites(copies(1).packs, R4_IN_LGA);
    const ranges = one.work.ranges;
    expect(ranges).toBeGreaterThan(1);
    clearSearchTables();
    // Enough for both packs' pages only with gaps read through: each plan is within what it is left.
    const two = copies(2);
    const both = await searchSites(two.packs, R4_IN_LGA, { maxRanges: 2 * ranges });
    expect(both.work.ranges).toBeLessThanOrEqual(2 * ranges);
    expect(two.sources.every((s) => s.reads > 0)).toBe(true);
    clearSearchTables();
    // The first pack's plan takes all it may; the second finds none left, and neither pack is read.
    const tight = copies(2);
    for (const p of pagedPacks(tight.packs)) await p.snapshot();
    for (const s of tight.sources) s.resetCounts();
    await expect(searchSites(tight.packs, R4_IN_LGA, { maxRanges: ranges })).rejects.toThrow(
      new RegExp(`needs more than ${ranges} reads of pack sydney-demo`),
    );
    expect(tight.sources.map((s) => s.reads)).toEqual([0, 0]);
  });
});
