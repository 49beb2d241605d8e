// The reader's fast paths (issue 33's figures): a warm point lookup without a promise, tiles in at most 2 range
// reads, and a tile's lots layer cut from per-page tags; each must answer exactly as the general path does.
import { beforeEach, describe, expect, it } from "vitest";
import { pagesFor } from "../../../../src/packs/request-pages.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { PageCache, pageId } from "../../../../src/packs/paged/page-cache.ts";
import type { DecodedPage } from "../../../../src/packs/paged/page.ts";
import { clearRootMemo, openPack } from "../../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { parcelAt } from "../../../../src/packs/spatial.ts";
import { tileLayers } from "../../../../src/tiles/cut.ts";
import { BUFFER, tileBBox, tileOf } from "../../../../src/tiles/math.ts";
import { mergeLayers } from "../../../../src/tiles/merge.ts";
import { encodeTile } from "../../../../src/tiles/mvt.ts";
import { pagedTile } from "../../../../src/tiles/paged.ts";
import { makeLots, packOptions } from "./fixture.ts";

const LOTS = makeLots(3000, 11);
const BYTES = await encodePack(LOTS, packOptions());
let n = 0;
const source = () => new MemorySource(`packs/warm-${n++}.gapk`, BYTES, { etag: "e1" });
const quiet = { log: () => {} };

beforeEach(() => clearRootMemo());

describe("warm paths of a v2 pack", () => {
  it("lotAt finds the lot parcelAt finds, and lotAtWarm answers without a read once the pages are cached", async () => {
    const src = source();
    const pack = await openPack(src, { cache: new PageCache(2 ** 30), ...quiet });
    const s = await pack.snapshot();
    const lot = LOTS[700]!;
    expect(pack.lotAtWarm(lot.centre[0], lot.centre[1])).toBeUndefined();
    await pack.pagesForBox(s.root.meta.bbox);
    src.resetCounts();
    const [w, south, e, north] = s.root.meta.bbox;
    let hits = 0;
    for (let k = 0; k < 600; k++) {
      // Lot centres and points between lots (misses), spread over the pack.
      const x = k % 2 === 0 ? LOTS[(k * 5) % LOTS.length]!.centre[0] : w + ((k * 0.618) % 1) * (e - w);
      const y = k % 2 === 0 ? LOTS[(k * 5) % LOTS.length]!.centre[1] : south + ((k * 0.382) % 1) * (north - south);
      const warm = pack.lotAtWarm(x, y);
      expect(warm).toBeDefined();
      const viaViews = parcelAt(await pagesFor([pack], [{ box: [x, y, x, y] }]), x, y);
      const id = warm?.lot ? (warm.lot.page.columns[0] as { values: (string | null)[] }).values[warm.lot.index] : null;
      expect(id ?? null).toBe(viaViews?.lotId ?? null);
      if (id) hits++;
    }
    expect(hits).toBeGreaterThan(300);
    expect(src.reads).toBe(0);
  });

  it("lotAt reads the pages it needs when they are not cached, then answers warm", async () => {
    const src = source();
    const pack = await openPack(src, { cache: new PageCache(), ...quiet });
    const lot = LOTS[2100]!;
    const cold = await pack.lotAt(lot.centre[0], lot.centre[1]);
    expect(cold.lot).not.toBeNull();
    expect(src.reads).toBeLessThanOrEqual(2);
    const warm = pack.lotAtWarm(lot.centre[0], lot.centre[1]);
    expect(warm?.lot?.index).toBe(cold.lot?.index);
    expect(warm?.lot?.page.no).toBe(cold.lot?.page.no);
  });

  it("reads the pages under a wide box in at most 2 ranges when asked, the same pages as unbounded", async () => {
    const snapPack = await openPack(source(), { cache: new PageCache(), ...quiet });
    const s = await snapPack.snapshot();
    // A band across the pack meets pages far apart on the Hilbert curve.
    const [w, south, e, north] = s.root.meta.bbox;
    const mid = (south + north) / 2;
    const box: [number, number, number, number] = [w, mid - (north - south) / 50, e, mid + (north - south) / 50];
    const free = source();
    const unbounded = await (await openPack(free, { cache: new PageCache(), ...quiet })).pagesForBox(box);
    expect(free.reads).toBeGreaterThan(2);
    clearRootMemo();
    const bounded = source();
    const pack = await openPack(bounded, { cache: new PageCache(), ...quiet });
    bounded.resetCounts();
    const set = await pack.pagesForBox(box, undefined, { maxReads: 2 });
    expect(bounded.reads).toBeLessThanOrEqual(2);
    expect(set.pages.map((p) => p.no)).toEqual(unbounded.pages.map((p) => p.no));
  });

  it("a z15 tile reads at most 2 ranges and is byte for byte the merge of its pages' cuts", async () => {
    const src = source();
    const pack = await openPack(src, { cache: new PageCache(2 ** 30), ...quiet });
    let compared = 0;
    for (const lot of LOTS.filter((_, i) => i % 97 === 0)) {
      for (const z of [14, 15, 16]) {
        const tile = tileOf(lot.centre[0], lot.centre[1], z);
        clearRootMemo();
        const cold = await openPack(source(), { cache: new PageCache(), ...quiet });
        const counted = cold.source as MemorySource;
        counted.resetCounts();
        const fast = await pagedTile(cold, tile);
        expect(counted.reads).toBeLessThanOrEqual(2);
        const views = await pagesFor([pack], [{ box: tileBBox(tile, BUFFER) }]);
        const layers = mergeLayers(views.map((v) => tileLayers(v, tile)));
        const general = layers.length > 0 ? encodeTile(layers) : null;
        expect(fast).not.toBeNull();
        expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(general as Uint8Array))).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it("counts a page's view, point grid and tile tags against the cache's budget", async () => {
    const cache = new PageCache(2 ** 30);
    const pack = await openPack(source(), { cache, ...quiet });
    const s = await pack.snapshot();
    const lot = LOTS[1500]!;
    const set = await pack.pagesForBox([lot.centre[0], lot.centre[1], lot.centre[0], lot.centre[1]]);
    const page = set.pages[0] as DecodedPage;
    expect(cache.get(s.key, s.etag, pageId("page", page.no))).toBe(page);
    const before = cache.bytes;
    pack.lotAtWarm(lot.centre[0], lot.centre[1]);
    const withGrid = cache.bytes;
    expect(withGrid).toBeGreaterThan(before);
    await pagedTile(pack, tileOf(lot.centre[0], lot.centre[1], 15));
    expect(cache.bytes).toBeGreaterThan(withGrid);
  });

  it("stays within its budget when charges grow cached pages", async () => {
    const cache = new PageCache(200 * 1024);
    const pack = await openPack(source(), { cache, ...quiet });
    for (const lot of LOTS.filter((_, i) => i % 40 === 0)) {
      await pack.lotAt(lot.centre[0], lot.centre[1]);
      await pagedTile(pack, tileOf(lot.centre[0], lot.centre[1], 16));
      expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    expect(cache.size).toBeGreaterThan(0);
  });
});
