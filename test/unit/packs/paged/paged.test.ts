import { beforeEach, describe, expect, it } from "vitest";
import { columnsFromGeometry } from "../../../../src/geo/columns.ts";
import { featureAreaM2 } from "../../../../src/geo/geodesic-area.ts";
import type { AreaGeometry, Position } from "../../../../src/geo/types.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, openPack } from "../../../../src/packs/paged/reader.ts";
import { decodeRoot, pageHasZone } from "../../../../src/packs/paged/root.ts";
import { HEADER_BYTES, readHeader } from "../../../../src/packs/paged/schema.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { COLUMNS, type Lot, makeLots, packOptions } from "./fixture.ts";

const LOTS = makeLots(3000, 7);
const BYTES = await encodePack(LOTS, packOptions());
let n = 0;
// Each test gets its own object key, so the isolate-wide root memo never crosses tests.
function source(bytes = BYTES, etag = "e1"): MemorySource {
  return new MemorySource(`packs/test-${n++}.gapk`, bytes, { etag });
}
const quiet = { log: () => {} };

function outer(g: AreaGeometry): Position[] {
  const c = g.type === "Polygon" ? g.coordinates[0] : g.coordinates[0]?.[0];
  return c ?? [];
}

beforeEach(() => clearRootMemo());

describe("pack format v2", () => {
  it("has a header, a root that fits the first read, and several pages", () => {
    const h = readHeader(BYTES, "t");
    const root = decodeRoot(BYTES.subarray(HEADER_BYTES, HEADER_BYTES + h.rootLength), h, "t");
    expect(h.featureCount).toBe(LOTS.length);
    expect(h.pageCount).toBeGreaterThan(5);
    expect(HEADER_BYTES + h.rootLength).toBeLessThan(64 * 1024);
    expect(h.objectLength).toBe(BYTES.length);
    expect(root.meta.asAt.cadastre).toBe("2025-12-01");
    // Per-page summaries: every page with an R2 lot says so.
    const r2 = root.meta.zoneDict.indexOf("R2");
    expect(r2).toBeGreaterThanOrEqual(0);
    expect([...Array(root.pageCount).keys()].some((p) => pageHasZone(root, p, r2))).toBe(true);
    expect(Math.max(...root.pageMax[0]!)).toBeGreaterThan(590);
  });

  it("refuses a v1 pack or another version with a sentence", () => {
    const b = BYTES.slice();
    new DataView(b.buffer).setUint16(4, 3, true);
    expect(() => readHeader(b, "k")).toThrow("expected pack format v2, got v3");
    b[0] = 0x58;
    expect(() => readHeader(b, "k")).toThrow(/not a pack/);
  });

  it("round-trips every lot's geometry (1e-7 degrees), area (0.1 m2) and columns", async () => {
    const pack = await openPack(source(), { cache: new PageCache(), ...quiet });
    for (const lot of LOTS.filter((_, i) => i % 7 === 0)) {
      const { features, refused } = await pack.byLotId(lot.id);
      expect(refused).toEqual([]);
      expect(features).toHaveLength(1);
      const f = features[0]!;
      const a = outer(lot.geometry);
      const b = outer(f.geometry);
      expect(b.length).toBe(a.length);
      for (let v = 0; v < a.length; v++) {
        expect(Math.abs(b[v]![0]! - a[v]![0]!)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
        expect(Math.abs(b[v]![1]! - a[v]![1]!)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
      }
      // The area answer is the precomputed column (0.01 m2 steps); area recomputed from the 1e-7 degree
      // vertices moves by at most the perimeter times a vertex's half-step (~0.8 cm on the diagonal).
      const areaIn = featureAreaM2(columnsFromGeometry(lot.geometry), 0);
      expect(Math.abs((f.properties.area_m2 as number) - areaIn)).toBeLessThan(0.1);
      const areaOut = featureAreaM2(columnsFromGeometry(f.geometry), 0);
      expect(Math.abs(areaIn - areaOut)).toBeLessThan(110 * 0.008);
      COLUMNS.forEach((c, k) => {
        const want = lot.values[k];
        const got = f.properties[c.name];
        if (typeof want === "number") expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(0.005);
        else expect(got).toBe(want);
      });
    }
  });

  it("finds the lot at each centre, and a box query returns exactly the lots whose boxes meet it", async () => {
    const pack = await openPack(source(), { cache: new PageCache(), ...quiet });
    for (const lot of LOTS.filter((_, i) => i % 37 === 0)) {
      const { features } = await pack.featuresAt(lot.centre[0], lot.centre[1]);
      expect(features.map((f) => f.properties.lot_id)).toEqual([lot.id]);
    }
    const c = LOTS[1500]!.centre;
    const box: [number, number, number, number] = [c[0] - 0.002, c[1] - 0.001, c[0] + 0.002, c[1] + 0.001];
    const meets = (l: Lot) => {
      const r = outer(l.geometry);
      const xs = r.map((p) => p[0]!);
      const ys = r.map((p) => p[1]!);
      return (
        Math.min(...xs) <= box[2] && Math.max(...xs) >= box[0] && Math.min(...ys) <= box[3] && Math.max(...ys) >= box[1]
      );
    };
    const want = LOTS.filter(meets)
      .map((l) => l.id)
      .sort();
    const { features } = await pack.featuresInBox(box);
    expect(features.map((f) => String(f.properties.lot_id)).sort()).toEqual(want);
    expect(want.length).toBeGreaterThan(20);
  });

  it("a cold point query reads at most 2 ranges; a lot-id lookup at most 3; a warm one none", async () => {
    const src = source();
    const cache = new PageCache();
    const pack = await openPack(src, { cache, ...quiet });
    const lot = LOTS[1234]!;
    await pack.featuresAt(lot.centre[0], lot.centre[1]);
    expect(src.reads).toBeLessThanOrEqual(2);
    src.resetCounts();
    await pack.featuresAt(lot.centre[0], lot.centre[1]);
    expect(src.reads).toBe(0);

    clearRootMemo();
    const src2 = source();
    const pack2 = await openPack(src2, { cache: new PageCache(), ...quiet });
    const r = await pack2.byLotId(LOTS[2222]!.id);
    expect(r.features).toHaveLength(1);
    expect(src2.reads).toBeLessThanOrEqual(3);
  });

  it("a box query over several adjacent pages reads them in one range", async () => {
    const src = source();
    const pack = await openPack(src, { cache: new PageCache(), ...quiet });
    src.resetCounts();
    const snap = await pack.snapshot();
    const bbox = snap.root.meta.bbox;
    const { features } = await pack.featuresInBox(bbox);
    expect(features).toHaveLength(LOTS.length);
    // Every page at once, yet one read: adjacent page ranges merge.
    expect(src.reads).toBe(1);
    expect(src.bytesRead).toBe(snap.root.pageOffsets[snap.root.pageCount]! - snap.header.dataStart);
  });

  it("concurrent queries for one cold page each read it (none awaits another's read), then it is cached", async () => {
    const src = source();
    src.latencyMs = 5;
    const pack = await openPack(src, { cache: new PageCache(), ...quiet });
    src.resetCounts();
    const lot = LOTS[400]!;
    const all = await Promise.all(Array.from({ length: 10 }, () => pack.featuresAt(lot.centre[0], lot.centre[1])));
    expect(all.every((r) => r.features[0]?.properties.lot_id === lot.id)).toBe(true);
    // A Worker's request may not await I/O another request began (test/worker/packs/shared-reads.test.ts).
    expect(src.reads).toBe(10);
    await pack.featuresAt(lot.centre[0], lot.centre[1]);
    expect(src.reads).toBe(10);
  });

  it("keeps the page cache within its byte budget, evicting least recently used pages", async () => {
    const cache = new PageCache(150 * 1024);
    const src = source();
    const pack = await openPack(src, { cache, ...quiet });
    let maxHeld = 0;
    for (const lot of LOTS.filter((_, i) => i % 50 === 0)) {
      await pack.featuresAt(lot.centre[0], lot.centre[1]);
      maxHeld = Math.max(maxHeld, cache.bytes);
      expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    const snap = await pack.snapshot();
    expect(cache.size).toBeLessThan(snap.root.pageCount);
    expect(maxHeld).toBeGreaterThan(cache.maxBytes / 2);
    // Evicted pages are read again when asked for.
    src.resetCounts();
    await pack.featuresAt(LOTS[0]!.centre[0], LOTS[0]!.centre[1]);
    expect(src.reads).toBe(1);
  });

  it("refuses a corrupted page alone, naming it, while the other pages serve", async () => {
    const src = source(BYTES.slice());
    const messages: string[] = [];
    const pack = await openPack(src, { cache: new PageCache(), log: (m) => messages.push(m) });
    const snap = await pack.snapshot();
    const bad = 3;
    const at = snap.root.pageOffsets[bad]! + 100;
    src.data[at] = (src.data[at]! ^ 0xff) & 0xff;
    const all = await pack.featuresInBox(snap.root.meta.bbox);
    expect(all.refused).toHaveLength(1);
    expect(all.refused[0]!.page).toBe(bad);
    expect(all.refused[0]!.message).toMatch(/page 3 refused: checksum mismatch/);
    expect(messages.some((m) => m.includes("page 3"))).toBe(true);
    expect(all.features.length).toBe(LOTS.length - snap.root.pageCounts[bad]!);
    expect(all.features.every((f) => f.page !== bad)).toBe(true);
    // A point query on another page still serves; one on the damaged page names it.
    const good = all.features[0]!;
    const lot = LOTS.find((l) => l.id === good.properties.lot_id)!;
    expect((await pack.featuresAt(lot.centre[0], lot.centre[1])).features).toHaveLength(1);
    const box = snap.root.pageBoxes;
    const onBad = LOTS.find(
      (l) =>
        !all.features.some((f) => f.properties.lot_id === l.id) &&
        l.centre[0] >= box[4 * bad]! &&
        l.centre[0] <= box[4 * bad + 2]!,
    )!;
    const r = await pack.featuresAt(onBad.centre[0], onBad.centre[1]);
    expect(r.refused.map((x) => x.page)).toContain(bad);
  });

  it("reads a root larger than the first range with one more read, and answers unknown lot ids with nothing", async () => {
    const src = source();
    const pack = await openPack(src, { cache: new PageCache(), initialBytes: 256, ...quiet });
    expect(src.reads).toBe(2);
    expect((await pack.byLotId("99//DP1")).features).toEqual([]);
    expect((await pack.byLotId(`lot 5 DP ${1000 + 3}`)).features[0]?.properties.lot_id).toBe("5//DP1003");
  });

  it("refuses a truncated object with a clear message", async () => {
    const src = source(BYTES.slice(0, BYTES.length - 1000));
    await expect(openPack(src, { cache: new PageCache(), ...quiet })).rejects.toThrow(
      `is truncated: header says ${BYTES.length} bytes, object holds ${BYTES.length - 1000}`,
    );
    const tiny = source(BYTES.slice(0, 20));
    await expect(openPack(tiny, { cache: new PageCache(), ...quiet })).rejects.toThrow(/truncated: 20 bytes/);
  });

  it("never serves a replaced object's pages: an etag change re-reads the root", async () => {
    // The new version changes every zone to E2.
    const v2 = await encodePack(
      LOTS.map((l) => ({ geometry: l.geometry, values: l.values.map((v, k) => (k === 1 ? "E2" : v)) })),
      packOptions(),
    );
    const lot = LOTS[10]!;
    const far = LOTS[2999]!;
    const zoneAt = async (pack: Awaited<ReturnType<typeof openPack>>, l: Lot) =>
      (await pack.featuresAt(l.centre[0], l.centre[1])).features[0]?.properties.zone;

    // A page read after the change meets the new etag: the root is re-read and the query runs on the new version.
    const src = source();
    const cache = new PageCache();
    const pack = await openPack(src, { cache, ...quiet });
    expect(await zoneAt(pack, lot)).toBe(lot.values[1]);
    src.replace(v2, "e2");
    expect(await zoneAt(pack, far)).toBe("E2");
    // The page cached under the old etag is never returned for the new one.
    expect(await zoneAt(pack, lot)).toBe("E2");

    // A page served from the cache: the registry's etag, given at open, retires the memoised root.
    clearRootMemo();
    const src2 = source();
    const p1 = await openPack(src2, { cache, ...quiet });
    expect(await zoneAt(p1, lot)).toBe(lot.values[1]);
    src2.replace(v2, "e2");
    const p2 = await openPack(src2, { cache, etag: "e2", ...quiet });
    expect(await zoneAt(p2, lot)).toBe("E2");

    // Without a registry etag, the root's time to live bounds how long a cached page may be served.
    clearRootMemo();
    let now = 0;
    const src3 = source();
    const p3 = await openPack(src3, { cache, rootTtlMs: 1000, now: () => now, ...quiet });
    expect(await zoneAt(p3, lot)).toBe(lot.values[1]);
    src3.replace(v2, "e2");
    now = 1000;
    expect(await zoneAt(p3, lot)).toBe("E2");
  });
});
