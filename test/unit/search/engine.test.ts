// The site search engine over the six-suburb demo: v1 and v2 packs give the same matches, counts agree with a
// lot-by-lot scan through the build-time kernels, pages that cannot match are never read, and cursors page exactly.
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FindParcelsOutput, findParcels } from "../../../src/chat/tools/find-parcels.ts";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { featureLabelPoint } from "../../../src/geo/label-point.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { ReadBudget } from "../../../src/packs/paged/read-budget.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import type { SearchQuery, SiteResult } from "../../../src/search/query.ts";
import { MAX_RANGES, RESULT_RANGES } from "../../../src/search/query.ts";
import { refFeatures } from "../../../src/search/refs.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { packs } from "../chat/demo-packs.ts";

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const others = packs.filter((p) => p !== demo);
let v2Bytes: Uint8Array;
let small: Uint8Array;
let n = 0;

function v2(bytes = v2Bytes): { packs: VisiblePacks; source: MemorySource } {
  const source = new MemorySource(`public/demo-${n++}.pack`, bytes);
  return { packs: openPacks([...others, new PagedPack(source, { cache: new PageCache() })]), source };
}
const v1: VisiblePacks = openPacks(packs);

beforeAll(async () => {
  v2Bytes = await convertToLotsPack(demo, { context: packs, pageBytes: 32 * 1024 });
  // Tiny pages: many more pages than a search may read ranges.
  small = await convertToLotsPack(demo, { context: packs, pageBytes: 2 * 1024 });
}, 60_000);

beforeEach(() => {
  clearRootMemo();
  clearSearchTables();
});

async function all(p: VisiblePacks, q: SearchQuery, limit = 97): Promise<{ count: number; results: SiteResult[] }> {
  const out: SiteResult[] = [];
  let cursor: string | null = null;
  let count = -1;
  do {
    const page = await searchSites(p, { ...q, limit, cursor });
    count = page.count;
    out.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor);
  return { count, results: out };
}

const QUERIES: SearchQuery[] = [
  { area: { suburb: "Epping" } },
  { area: { suburb: "Newtown" }, filters: { zones: ["R2"] }, sort: "station" },
  { area: { lga: "Parramatta" }, filters: { area_m2: { min: 600 }, exclude: ["flood", "heritage"] } },
  { area: { lga: "City of Parramatta Council" }, filters: { fsr_min: 1 }, sort: "fsr" },
  {
    area: { bbox: [151.17, -33.91, 151.19, -33.89] },
    filters: { height_min_m: 9, meets_min_lot: true },
    sort: "height",
  },
  { area: { suburb: "Carlingford" }, filters: { station_within_m: 1200, exclude: ["bushfire"] } },
];

describe("site search engine", () => {
  it("a v2 lots pack gives the same lots, facts and order as its v1 pack, query by query", async () => {
    let matched = 0;
    for (const q of QUERIES) {
      const a = await all(v1, q);
      const b = await all(v2().packs, q);
      expect(b.count, JSON.stringify(q)).toBe(a.count);
      expect(b.results.length).toBe(a.count);
      // v2 stores areas to 0.1 m², so two lots within 0.1 m² of each other may swap: compared by lot id.
      const byId = new Map(b.results.map((r) => [r.lot_id, r]));
      for (const r of a.results) {
        const s = byId.get(r.lot_id) as SiteResult;
        expect(s, r.lot_id ?? "").toBeDefined();
        // Areas are stored to 0.1 m²; coordinates to 1e-7 degrees.
        expect(Math.abs(s.area_m2 - r.area_m2)).toBeLessThanOrEqual(0.1);
        expect(Math.abs(s.center[0] - r.center[0])).toBeLessThan(2e-7);
        expect({ ...s, area_m2: 0, center: [0, 0], pack_id: "" }).toEqual({
          ...r,
          area_m2: 0,
          center: [0, 0],
          pack_id: "",
        });
      }
      matched += a.count;
    }
    expect(matched).toBeGreaterThan(50);
  });

  it("counts what a lot-by-lot scan through the overlay kernels finds", async () => {
    const lots = demo.layers.get("parcels");
    if (!lots) throw new Error("no parcels");
    let expected = 0;
    const ids: string[] = [];
    for (let i = 0; i < lots.count; i++) {
      const r = lotRecordFrom(packs, parcelFromFeature(demo, i));
      const area = parcelFromFeature(demo, i).areaM2;
      const [x] = featureLabelPoint(lots, i);
      const ok =
        r.place.lga === "Parramatta" &&
        (r.facts.zones[0]?.code === "R3" || r.facts.zones[0]?.code === "R4" || r.facts.zones[0]?.code === "R2") &&
        Math.round(area * 10) / 10 >= 500 &&
        r.facts.hazards.flood === 0 &&
        Number.isFinite(x);
      if (ok) {
        expected++;
        ids.push(r.facts.lotId ?? "");
      }
    }
    const q: SearchQuery = {
      area: { lga: "Parramatta" },
      filters: { zones: ["r2", "R3", "R4"], area_m2: { min: 500 }, exclude: ["flood"] },
    };
    for (const p of [v1, v2().packs]) {
      const got = await all(p, q);
      expect(got.count).toBe(expected);
      expect(got.results.map((r) => r.lot_id).sort()).toEqual(ids.sort());
    }
    expect(expected).toBeGreaterThan(5);
  });

  it("pages whose summaries cannot match are never read", async () => {
    const { packs: p, source } = v2(small);
    const base = await searchSites(p, { area: { lga: "Parramatta" } });
    const readAll = source.reads;
    source.resetCounts();
    clearSearchTables();
    const none = await searchSites(p, { area: { lga: "Parramatta" }, filters: { zones: ["E4"] } });
    expect(none.count).toBe(0);
    // E4 is in no lot of the demo: the root says so, and no page is read.
    expect(none.work.pagesSkipped).toBe(none.work.pagesInArea);
    expect(source.reads).toBe(0);
    const big = await searchSites(p, { area: { lga: "Parramatta" }, filters: { area_m2: { min: 5000 } } });
    expect(big.work.pagesSkipped).toBeGreaterThan(0);
    expect(big.work.pagesRead).toBeLessThan(base.work.pagesRead);
    expect(readAll).toBeGreaterThan(0);
  });

  it(`reads at most ${MAX_RANGES} byte ranges, however many pages the area spans`, async () => {
    const { packs: p, source } = v2(small);
    const whole: SearchQuery = { area: { bbox: [150.9, -34, 151.3, -33.7] }, filters: { zones: ["R2"] } };
    const got = await searchSites(p, whole);
    expect(got.work.pagesRead).toBeGreaterThan(MAX_RANGES);
    expect(source.reads).toBeLessThanOrEqual(MAX_RANGES + 1);
    expect(got.work.ranges).toBeLessThanOrEqual(MAX_RANGES);
    expect(got.count).toBe((await searchSites(v1, whole)).count);
  });

  it("a search and the read-back of its results' lots share one budget of byte ranges", async () => {
    const { packs: p, source } = v2(small);
    const budget = new ReadBudget({ ranges: MAX_RANGES });
    const whole: SearchQuery = { area: { bbox: [150.9, -34, 151.3, -33.7] }, limit: 200 };
    const found = await searchSites(p, whole, { budget, reserveRanges: RESULT_RANGES });
    expect(found.work.ranges).toBeLessThanOrEqual(MAX_RANGES - RESULT_RANGES);
    const pages = new Set(found.refs.map((r) => ("page" in r ? r.page : -1)));
    expect(pages.size).toBeGreaterThan(10);
    source.resetCounts();
    const features = await refFeatures(found.refs, budget);
    expect(features.length).toBe(found.results.length);
    expect(source.reads).toBeGreaterThan(0);
    expect(source.reads).toBeLessThanOrEqual(MAX_RANGES - found.work.ranges);
    expect(MAX_RANGES - budget.left.ranges).toBe(found.work.ranges + source.reads);
    for (const [k, f] of features.entries()) {
      expect(f.pack.layers.get("parcels")?.props(f.index).lot_id).toBe(found.results[k]?.lot_id);
    }
  });

  it("results whose pages need more reads than the search left are refused before any read", async () => {
    const { packs: p, source } = v2(small);
    const found = await searchSites(p, { area: { bbox: [150.9, -34, 151.3, -33.7] }, limit: 200 });
    source.resetCounts();
    await expect(refFeatures(found.refs, new ReadBudget({ ranges: 1, bytes: 1024 }))).rejects.toThrow(
      /more than this request may read/,
    );
    expect(source.reads).toBe(0);
  });

  it("a warm search reads nothing", async () => {
    const { packs: p, source } = v2();
    const q: SearchQuery = { area: { suburb: "Eastwood" } };
    const cold = await searchSites(p, q);
    source.resetCounts();
    const warm = await searchSites(p, q);
    expect(source.reads).toBe(0);
    expect(warm.results).toEqual(cold.results);
  });

  it("a cursor continues the order exactly and is refused by another search", async () => {
    const q: SearchQuery = { area: { suburb: "Epping" }, sort: "station" };
    const whole = await all(v1, q, 500);
    const paged = await all(v1, q, 7);
    expect(paged.results.map((r) => r.lot_id)).toEqual(whole.results.map((r) => r.lot_id));
    const dist = whole.results.map((r) => r.station?.distance_m ?? Infinity);
    expect(dist).toEqual([...dist].sort((a, b) => a - b));
    const first = await searchSites(v1, { ...q, limit: 3 });
    await expect(searchSites(v1, { ...q, sort: "area", cursor: first.next_cursor })).rejects.toThrow(/another search/);
    await expect(searchSites(v1, { ...q, cursor: "garbage" })).rejects.toThrow(/not one this service gave/);
  });

  it("the chat's find_parcels answers from the same engine: the same count and the same largest lots", async () => {
    const input = { suburb: "Epping", zones: ["R2", "R3"], min_area_m2: 550, hazard_free: true, limit: 40 };
    const chat = (await findParcels(v1, input, null)).output as FindParcelsOutput;
    const tab = await searchSites(v1, {
      area: { suburb: "Epping" },
      filters: { zones: ["R2", "R3"], area_m2: { min: 550 }, exclude: ["flood", "bushfire"] },
      limit: 40,
    });
    expect(tab.count).toBeGreaterThan(10);
    expect(chat.matched).toBe(tab.count);
    expect(chat.parcels.map((p) => p.lot_id)).toEqual(tab.results.slice(0, chat.parcels.length).map((r) => r.lot_id));
  });

  it("an unknown suburb or LGA is named in the refusal", async () => {
    await expect(searchSites(v1, { area: { suburb: "Atlantis" } })).rejects.toThrow("Suburb not found: Atlantis");
    await expect(searchSites(v1, { area: { lga: "Gotham" } })).rejects.toThrow("LGA not found: Gotham");
  });
});
