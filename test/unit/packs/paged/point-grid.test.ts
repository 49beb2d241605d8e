// The warm point lookup's own structures (issue 33): a page's point grid answers as a scan of every feature does, and
// the cache's per-version table never serves a page it no longer holds, of an etag it no longer names.
import { beforeEach, describe, expect, it } from "vitest";
import { pointInFeature, pointInFixedRing, pointInRing } from "../../../../src/geo/pip.ts";
import type { AreaGeometry, Position } from "../../../../src/geo/types.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { PageCache, pageId } from "../../../../src/packs/paged/page-cache.ts";
import { type DecodedPage, ensurePageGrid, lotInPage } from "../../../../src/packs/paged/page.ts";
import { clearRootMemo, openPack, PagedPack } from "../../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { type Lot, makeLots, packOptions } from "./fixture.ts";

const quiet = { log: () => {} };
const M = 1 / 100_000;

// Fixture lots with some reshaped: holed, two-part, and overlapping their neighbours (the lowest feature must win).
function awkwardLots(): Lot[] {
  const lots = makeLots(1200, 5);
  lots.forEach((lot, k) => {
    const [cx, cy] = lot.centre;
    const sq = (x: number, y: number, r: number): Position[] => [
      [x - r, y - r],
      [x + r, y - r],
      [x + r, y + r],
      [x - r, y + r],
      [x - r, y - r],
    ];
    let geometry: AreaGeometry | null = null;
    if (k % 7 === 0) geometry = { type: "Polygon", coordinates: [sq(cx, cy, 6 * M), sq(cx, cy, 2 * M)] };
    else if (k % 11 === 0)
      geometry = { type: "MultiPolygon", coordinates: [[sq(cx - 4 * M, cy, 2 * M)], [sq(cx + 4 * M, cy, 2 * M)]] };
    else if (k % 13 === 0) geometry = { type: "Polygon", coordinates: [sq(cx, cy, 30 * M)] };
    if (geometry) lot.geometry = geometry;
  });
  return lots;
}

// The lowest feature of the page whose polygon holds the point, by testing every one.
function scan(page: DecodedPage, x: number, y: number): number {
  for (let i = 0; i < page.count; i++) if (pointInFeature(page, i, x, y)) return i;
  return -1;
}

beforeEach(() => clearRootMemo());

describe("a page's point grid", () => {
  it("finds the lowest feature holding the point, as a scan of every feature does, on vertices and edges too", async () => {
    const bytes = await encodePack(awkwardLots(), packOptions());
    const pack = await openPack(new MemorySource("packs/grid.gapk", bytes), {
      cache: new PageCache(2 ** 30),
      ...quiet,
    });
    const s = await pack.snapshot();
    const { pages } = await pack.pagesForBox(s.root.meta.bbox);
    expect(pages.length).toBeGreaterThan(3);
    let checked = 0;
    let inside = 0;
    for (const page of pages) {
      const plain = { ...page, grid: undefined };
      expect(ensurePageGrid(page)).toBeGreaterThan(0);
      const [w, south, e, north] = Array.from(page.frame, (q) => q / 1e7) as [number, number, number, number];
      const points: [number, number][] = [];
      // Every vertex, every edge's midpoint, and points spread over (and just past) the page.
      for (let v = 0; v < page.coords.length / 2; v++) {
        points.push([page.coords[2 * v] as number, page.coords[2 * v + 1] as number]);
        if (v + 1 < page.coords.length / 2) {
          points.push([
            ((page.coords[2 * v] as number) + (page.coords[2 * v + 2] as number)) / 2,
            ((page.coords[2 * v + 1] as number) + (page.coords[2 * v + 3] as number)) / 2,
          ]);
        }
      }
      for (let k = 0; k < 400; k++) {
        points.push([
          w + (((k * 0.618) % 1) * 1.1 - 0.05) * (e - w),
          south + (((k * 0.382) % 1) * 1.1 - 0.05) * (north - south),
        ]);
      }
      for (const [x, y] of points) {
        const want = scan(page, x, y);
        expect(lotInPage(page, x, y)).toBe(want);
        expect(lotInPage(plain, x, y)).toBe(want);
        if (want >= 0) inside++;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(inside).toBeGreaterThan(checked / 4);
  });

  it("tests a fixed-point ring to the same answer, bit for bit, as the decoded doubles", () => {
    let state = 7;
    const rnd = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    let agreed = 0;
    for (let r = 0; r < 200; r++) {
      const n = 3 + Math.floor(rnd() * 8);
      const q = new Int32Array(2 * n);
      for (let k = 0; k < 2 * n; k++) q[k] = (k % 2 === 0 ? 1_510_000_000 : -339_000_000) + Math.floor(rnd() * 2000);
      const d = Float64Array.from(q, (v) => v / 1e7);
      for (let k = 0; k < 50; k++) {
        // A third on a vertex, a third level with one (where rounding would show), a third anywhere near.
        const v = Math.floor(rnd() * n);
        const x = k % 3 === 2 ? 151 + rnd() * 0.0002 : (d[2 * v] as number);
        const y = k % 3 === 0 ? (d[2 * v + 1] as number) : -33.9 + rnd() * 0.0002;
        expect(pointInFixedRing(q, 0, 2 * n, 1e7, x, y)).toBe(pointInRing(d, 0, n, x, y));
        agreed++;
      }
    }
    expect(agreed).toBe(10_000);
  });
});

describe("the cache's table of a version's pages", () => {
  it("serves a grid while its page is cached, counts that use as recent, and drops it with the page", async () => {
    const bytes = await encodePack(makeLots(2000, 3), packOptions());
    const loader = await openPack(new MemorySource("packs/lru.gapk", bytes), {
      cache: new PageCache(2 ** 30),
      ...quiet,
    });
    const s = await loader.snapshot();
    const { pages } = await loader.pagesForBox(s.root.meta.bbox);
    for (const p of pages) ensurePageGrid(p);
    const [p0, p1, p2, p3] = pages as [DecodedPage, DecodedPage, DecodedPage, DecodedPage];
    // Room for three of these pages, not four; evicting one page brings the cache under its 90% low-water mark.
    const sum = p0.bytes + p1.bytes + p2.bytes + p3.bytes;
    const cache = new PageCache(Math.floor(sum - Math.min(p0.bytes, p1.bytes, p2.bytes, p3.bytes) / 2));
    expect(sum - Math.max(p0.bytes, p1.bytes)).toBeLessThanOrEqual(cache.maxBytes * 0.9);
    const id = (p: DecodedPage) => pageId("page", p.no);
    cache.set("k", "e1", id(p0), p0);
    cache.set("k", "e1", id(p1), p1);
    const t = cache.table("k", "e1");
    if (!t) throw new Error("no table after set");
    expect(cache.gridOf(t, p0.no)).toBeUndefined();
    cache.holdGrid(t, p0.no, p0);
    // A page object other than the one cached is never held.
    cache.holdGrid(t, p1.no, { ...p1 });
    expect(cache.gridOf(t, p1.no)).toBeUndefined();
    expect(cache.gridOf(t, p0.no)).toBe(p0.grid);
    // p0 was used after p1 only through gridOf: p1 is the least recently used and goes first.
    cache.set("k", "e1", id(p2), p2);
    cache.set("k", "e1", id(p3), p3);
    expect(cache.get("k", "e1", id(p1))).toBeUndefined();
    expect(cache.get("k", "e1", id(p0))).toBe(p0);
    expect(cache.gridOf(t, p0.no)).toBe(p0.grid);
    // Now p2 and p3 are used later than p0's last use: filling the cache evicts p0, and its grid with it.
    cache.get("k", "e1", id(p2));
    cache.get("k", "e1", id(p3));
    cache.set("k", "e1", id(p1), p1);
    expect(cache.get("k", "e1", id(p0))).toBeUndefined();
    expect(cache.gridOf(t, p0.no)).toBeUndefined();
    expect(t.pages[p0.no]).toBeUndefined();
  });

  it("marks a table dead once its last page goes, so a holder asks again", async () => {
    const bytes = await encodePack(makeLots(400, 4), packOptions());
    const loader = await openPack(new MemorySource("packs/dead.gapk", bytes), {
      cache: new PageCache(2 ** 30),
      ...quiet,
    });
    const s = await loader.snapshot();
    const [p0] = (await loader.pagesForBox(s.root.meta.bbox)).pages as [DecodedPage];
    ensurePageGrid(p0);
    const cache = new PageCache(p0.bytes + 1);
    cache.set("k", "e1", pageId("page", p0.no), p0);
    const t = cache.table("k", "e1");
    if (!t) throw new Error("no table after set");
    cache.holdGrid(t, p0.no, p0);
    expect(cache.gridOf(t, p0.no)).toBe(p0.grid);
    // A second page over the budget evicts the first: the table empties and is retired.
    cache.set("k", "e1", pageId("page", p0.no + 1), { ...p0, no: p0.no + 1 });
    expect(t.live).toBe(false);
    expect(cache.gridOf(t, p0.no)).toBeUndefined();
    expect(cache.table("k", "e1")).not.toBe(t);
  });

  it("never answers from a page of an evicted entry: the lookup falls back to reading it", async () => {
    const lots = makeLots(3000, 11);
    const bytes = await encodePack(lots, packOptions());
    const src = new MemorySource("packs/evict.gapk", bytes, { etag: "e1" });
    const cache = new PageCache(2 ** 30);
    const pack = await openPack(src, { cache, ...quiet });
    const s = await pack.snapshot();
    const lot = lots[1500] as Lot;
    const [x, y] = lot.centre;
    const cold = await pack.lotAt(x, y);
    const page = cold.lot?.page as DecodedPage;
    expect(pack.lotAtWarm(x, y)?.lot?.page).toBe(page);
    expect(cache.table(s.key, s.etag)?.grids[page.no]).toBe(page.grid);
    // Another pack's pages fill a tight budget: this pack's pages are evicted.
    const tight = new PageCache(cache.bytes + 1);
    const p2 = await openPack(src, { cache: tight, ...quiet });
    await p2.lotAt(x, y);
    expect(p2.lotAtWarm(x, y)?.lot?.index).toBe(cold.lot?.index);
    const other = await openPack(new MemorySource("packs/evict-other.gapk", bytes), { cache: tight, ...quiet });
    const so = await other.snapshot();
    await other.pagesForBox(so.root.meta.bbox);
    expect(tight.get(s.key, s.etag, pageId("page", page.no))).toBeUndefined();
    src.resetCounts();
    expect(p2.lotAtWarm(x, y)).toBeUndefined();
    const again = await p2.lotAt(x, y);
    expect(src.reads).toBeGreaterThan(0);
    expect(again.lot?.index).toBe(cold.lot?.index);
  });

  it("never serves the pages of a replaced object: a new etag's lookup reads the new lots", async () => {
    const lots = makeLots(3000, 11);
    const bytes = await encodePack(lots, packOptions());
    // The replacement moves every lot 30 m east: a point in an old lot's west strip now lies in a street or neighbour.
    const moved = lots.map((l) => ({
      ...l,
      geometry: {
        type: "Polygon" as const,
        coordinates: (l.geometry.coordinates as Position[][]).map((r) => r.map(([a, b]) => [a + 30 * M, b])),
      } as AreaGeometry,
    }));
    const bytes2 = await encodePack(moved, packOptions());
    const src = new MemorySource("packs/replaced.gapk", bytes, { etag: "e1" });
    const cache = new PageCache(2 ** 30);
    const pack = new PagedPack(src, { cache, rootTtlMs: 0, ...quiet });
    const s1 = await pack.snapshot();
    await pack.pagesForBox(s1.root.meta.bbox);
    const probes = lots.filter((_, i) => i % 97 === 0).map((l) => [l.centre[0] - 6 * M, l.centre[1]] as const);
    const before = probes.map(([x, y]) => pack.lotAtWarm(x, y) ?? null);
    expect(before.every((r) => r === null)).toBe(true); // a root past its time to live is never used warm
    const warm = new PagedPack(src, { cache, ...quiet });
    const old = probes.map(([x, y]) => warm.lotAtWarm(x, y));
    expect(old.filter((r) => r?.lot).length).toBeGreaterThan(probes.length / 2);
    src.replace(bytes2, "e2");
    const s2 = await warm.refresh(s1);
    expect(s2.etag).toBe("e2");
    let unanswered = 0;
    const id = (p: DecodedPage | undefined, i: number | undefined) =>
      p && i !== undefined ? (p.columns[0] as { values: (string | null)[] }).values[i] : null;
    for (const [k, [x, y]] of probes.entries()) {
      const want = moved.find((l) => pointInPolygonOf(l.geometry, x, y))?.id ?? null;
      // Before the new version's pages under it are read, a point has no warm answer, or the new version's.
      const first = warm.lotAtWarm(x, y);
      if (first === undefined) unanswered++;
      else {
        expect(first.snapshot.etag).toBe("e2");
        expect(id(first.lot?.page, first.lot?.index) ?? null).toBe(want);
      }
      const fresh = await warm.lotAt(x, y);
      expect(fresh.snapshot.etag).toBe("e2");
      expect(id(fresh.lot?.page, fresh.lot?.index) ?? null).toBe(want);
      expect(warm.lotAtWarm(x, y)?.snapshot.etag).toBe("e2");
      expect(old[k]?.snapshot.etag).toBe("e1");
    }
    expect(unanswered).toBeGreaterThan(3);
  });
});

function pointInPolygonOf(g: AreaGeometry, x: number, y: number): boolean {
  const ring = (g.coordinates as Position[][])[0] as Position[];
  const d = Float64Array.from(ring.slice(0, -1).flat() as number[]);
  return pointInRing(d, 0, ring.length - 1, x, y);
}
