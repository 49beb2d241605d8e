// A search's work is bounded: its budget is judged from the roots (a filter that skips pages brings it in), it
// yields between chunks of lots, and a count can stop at a cap, which is how saved searches run at a publish.
import { openPacks, pagedPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { matchesIn, searchMatchChanges } from "../../../src/alerts/search-match.ts";
import { pagedVersion } from "../../../src/alerts/versions.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { logger } from "../../../src/logger.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import type { SearchQuery } from "../../../src/search/query.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { packs } from "../chat/demo-packs.ts";

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const context = packs.filter((p) => p !== demo);
let bytes: Uint8Array;
let n = 0;

function v2(): { packs: VisiblePacks; source: MemorySource; paged: PagedPack } {
  const source = new MemorySource(`public/budget-${n++}.pack`, bytes);
  const paged = new PagedPack(source, { cache: new PageCache() });
  return { packs: openPacks([...context, paged]), source, paged };
}

beforeAll(async () => {
  // Small pages: an LGA spans dozens of them, so where a scan stops shows in the pages it read.
  bytes = await convertToLotsPack(demo, { context: packs, pageBytes: 4 * 1024 });
}, 60_000);

beforeEach(() => {
  clearRootMemo();
  clearSearchTables();
});

const LGA: SearchQuery = { area: { lga: "Parramatta" } };

describe("the work budget", () => {
  it("is judged from the pages that may match: a zone filter brings an area over the byte budget within it", async () => {
    const full = await searchSites(v2().packs, LGA);
    const budget = full.work.bytesRead - 1;
    clearSearchTables();
    const { packs: p, source } = v2();
    await pagedPacks(p)[0]?.snapshot();
    source.resetCounts();
    await expect(searchSites(p, LGA, { maxBytes: budget })).rejects.toThrow(/MiB one search may read: search a suburb/);
    expect(source.reads).toBe(0);
    const narrowed = await searchSites(p, { ...LGA, filters: { zones: ["R4"] } }, { maxBytes: budget });
    expect(narrowed.work.pagesSkipped).toBeGreaterThan(0);
    expect(narrowed.work.bytesRead).toBeLessThanOrEqual(budget);
  });
});

describe("yielding", () => {
  it("tests at most `yieldEvery` lots between two yields to the event loop, whatever the tables' sizes", async () => {
    const found = await searchSites(v2().packs, LGA, { yieldEvery: 500 });
    expect(found.work.lotsTested).toBeGreaterThan(2000);
    expect(found.work.mostLotsBetweenYields).toBeLessThanOrEqual(500);
    expect(found.work.mostLotsBetweenYields).toBeGreaterThan(0);
    expect(found.work.yields).toBeGreaterThanOrEqual(Math.floor(found.work.lotsTested / 500) - 1);
  });
});

describe("stopping at a cap", () => {
  it("stops testing lots and reading pages once the count passes `stopAbove`", async () => {
    const full = await searchSites(v2().packs, LGA);
    expect(full.count).toBeGreaterThan(1000);
    clearSearchTables();
    const capped = await searchSites(v2().packs, LGA, { stopAbove: 50 });
    expect(capped.stopped).toBe(true);
    expect(capped.count).toBe(51);
    expect(capped.results).toEqual([]);
    expect(capped.next_cursor).toBeNull();
    // Reads already in flight finish (here one range holds the whole LGA), but no lot after the cap is tested.
    expect(capped.work.lotsTested).toBeLessThan(full.work.lotsTested / 4);
  });

  it("returns every match in order in one pass when they are fewer than the cap, over MAX_LIMIT", async () => {
    const full = await searchSites(v2().packs, { ...LGA, limit: 500 });
    const all = await searchSites(v2().packs, { ...LGA, limit: 5000 }, { stopAbove: 5000, maxLimit: 5000 });
    expect(all.stopped).toBe(false);
    expect(all.results.length).toBe(full.count);
    expect(all.results.slice(0, 500)).toEqual(full.results);
  });
});

describe("a saved search at a publish", () => {
  it("runs once per version, counting only until the cap", async () => {
    const { paged } = v2();
    const version = await pagedVersion(paged);
    const full = await matchesIn(version, context, LGA);
    expect(full.matches?.length).toBeGreaterThan(1000);
    expect(full.work.lotsTested).toBeGreaterThan(4000);
    const capped = await matchesIn(version, context, LGA, 100);
    expect(capped.matches).toBeNull();
    expect(capped.work.lotsTested).toBeLessThan(full.work.lotsTested / 4);
  });

  it("matching more lots than the cap in the old version: compares nothing and never scans the new one", async () => {
    const from = v2();
    const to = v2();
    const job = {
      packId: "sydney-demo",
      from: await pagedVersion(from.paged),
      to: await pagedVersion(to.paged),
      context,
    };
    to.source.resetCounts();
    const changes = await searchMatchChanges(job, { id: "a1", search: LGA }, logger, 100);
    expect(changes).toEqual([]);
    expect(from.source.bytesRead).toBeGreaterThan(0);
    expect(to.source.bytesRead).toBe(0);
  });
});
