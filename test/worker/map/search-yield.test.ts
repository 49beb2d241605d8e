// Inside workerd: a search over more lots than one chunk yields to the event loop between chunks, never testing
// more than YIELD_EVERY_LOTS lots between two yields, so another request's timers and I/O run meanwhile.
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import { YIELD_EVERY_LOTS } from "../../../src/search/query.ts";
import { demoPackBytes } from "../../support/packs.ts";
import { timerChain } from "../../support/timer-chain.ts";

let packs: VisiblePacks;

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs: Pack = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  const bytes = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 512 * 1024 });
  // Six copies of the demo's 7,647 lots: some 46,000 lots to test, in pages larger than one chunk.
  const paged = [0, 1, 2, 3, 4, 5].map((k) => new PagedPack(new MemorySource(`public/yield-${k}.pack`, bytes)));
  packs = openPacks([...[suburbs], ...paged]);
}, 120_000);

describe("a long search yields", () => {
  it(`tests at most ${YIELD_EVERY_LOTS.toLocaleString("en-AU")} lots between yields, and timers run while it works`, async () => {
    // Another request's work, as the isolate sees it: a timer that re-arms itself until the search ends.
    const stop = timerChain();
    const found = await searchSites(packs, { area: { bbox: [150, -35, 152, -33] }, limit: 10 });
    const ticks = stop();
    expect(found.work.lotsTested).toBeGreaterThan(2 * YIELD_EVERY_LOTS);
    expect(found.work.mostLotsBetweenYields).toBeLessThanOrEqual(YIELD_EVERY_LOTS);
    expect(found.work.yields).toBeGreaterThanOrEqual(Math.floor(found.work.lotsTested / YIELD_EVERY_LOTS) - 1);
    // The other work's timer ran while the search was under way.
    expect(ticks).toBeGreaterThan(0);
  }, 60_000);
});
