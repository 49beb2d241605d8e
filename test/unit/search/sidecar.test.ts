// The search sidecar (issue 53) gives the answers the pages give: generated searches over the 50,000-lot test world,
// each run by pages and by the sidecar, compared whole (count, results in order, cursor, box), and a second page by
// each path's cursor; the sidecar path reads blocks, and pages only for the results it returns.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../../../scripts/dev/test-world.ts";
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { type SearchOutcome, searchSites } from "../../../src/search/engine.ts";
import type { SearchArea, SearchFilters, SearchQuery } from "../../../src/search/query.ts";
import { buildSidecar } from "../../../src/search/sidecar/build.ts";
import type { SidecarHead } from "../../../src/search/sidecar/format.ts";
import { attachSidecar, sidecarKey } from "../../../src/search/sidecar/registry.ts";
import { Sidecar } from "../../../src/search/sidecar/reader.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { UnprocessableError } from "../../../src/errors.ts";

let packs: VisiblePacks;
let head: SidecarHead;
let sidecarSource: MemorySource;
let bbox: [number, number, number, number];

beforeAll(async () => {
  const world = await testWorld(() => {});
  const key = "public/world@test.pack";
  const pack = new PagedPack(new MemorySource(key, new Uint8Array(readFileSync(world.path))));
  sidecarSource = new MemorySource(sidecarKey(key), await buildSidecar(pack));
  attachSidecar(pack, sidecarSource);
  head = (await Sidecar.open(sidecarSource)).head;
  bbox = (await pack.snapshot()).root.meta.bbox as [number, number, number, number];
  packs = openPacks([readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs.pack"), pack]);
}, 600_000);

// What a caller sees of an answer: everything but the work it took.
const answer = (o: SearchOutcome) => ({
  count: o.count,
  stopped: o.stopped,
  results: o.results,
  next_cursor: o.next_cursor,
  bbox: o.bbox,
  areaRange: o.areaRange,
  label: o.label,
  refs: o.refs.map((r) => ("pack" in r ? { index: r.index } : { page: r.page, index: r.index })),
});

// Both paths cold, or both refused alike.
async function both(q: SearchQuery, stopAbove?: number) {
  const limits = stopAbove === undefined ? {} : { stopAbove };
  clearSearchTables();
  const pages = await searchSites(packs, q, { ...limits, sidecar: false }).catch((e: unknown) => e);
  clearSearchTables();
  const side = await searchSites(packs, q, limits).catch((e: unknown) => e);
  return { pages, side };
}

const area = (): fc.Arbitrary<SearchArea> =>
  fc.oneof(
    fc.constantFrom(...head.dicts.lga).map((lga): SearchArea => ({ lga })),
    fc.constantFrom(...head.dicts.suburb).map((suburb): SearchArea => ({ suburb })),
    fc
      .tuple(
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
      )
      .map(([fx, fy, size]): SearchArea => {
        const w = (bbox[2] - bbox[0]) * size;
        const h = (bbox[3] - bbox[1]) * size;
        const x = bbox[0] + (bbox[2] - bbox[0]) * fx;
        const y = bbox[1] + (bbox[3] - bbox[1]) * fy;
        return { bbox: [x, y, x + w, y + h] };
      }),
    fc.constant<SearchArea>({ bbox: [bbox[0], bbox[1], bbox[2], bbox[3]] }),
  );

const filters = (): fc.Arbitrary<SearchFilters> =>
  fc.record(
    {
      zones: fc.subarray(["R1", "R2", "R3", "R4", "E1", "MU1", "B4", "IN1", "RE1"], { minLength: 1 }),
      area_m2: fc.record(
        { min: fc.integer({ min: 0, max: 2000 }), max: fc.integer({ min: 400, max: 20000 }) },
        { requiredKeys: [] },
      ),
      fsr_min: fc.constantFrom(0.5, 0.8, 1, 1.5, 2),
      height_min_m: fc.constantFrom(8.5, 9, 12, 18, 25),
      meets_min_lot: fc.boolean(),
      exclude: fc.subarray(["flood", "bushfire", "heritage"] as const, { minLength: 1 }),
      station_within_m: fc.integer({ min: 100, max: 2500 }),
    },
    { requiredKeys: [] },
  );

describe("the search sidecar", () => {
  it("stores each lot's search facts in fewer bytes than the pages hold them", () => {
    const bytes = sidecarSource.data.length;
    expect(head.rows).toBeGreaterThan(40_000);
    // The budget: the sidecar is a small fraction of the pack (its columns only, bit-packed).
    expect(bytes / head.rows).toBeLessThan(40);
  });

  it("answers every generated search as the pages do: count, order, results, cursor, box", async () => {
    let sidecarSearches = 0;
    await fc.assert(
      fc.asyncProperty(
        area(),
        filters(),
        fc.constantFrom("area", "fsr", "height", "station" as const),
        fc.integer({ min: 1, max: 60 }),
        async (a, f, sort, limit) => {
          const q: SearchQuery = { area: a, filters: f, sort, limit };
          const first = await both(q);
          if (first.pages instanceof Error || first.side instanceof Error) {
            // A refusal (an unknown place) is the same refusal either way.
            expect(String(first.side)).toBe(String(first.pages));
            return;
          }
          const p = first.pages as SearchOutcome;
          const s = first.side as SearchOutcome;
          expect(answer(s)).toEqual(answer(p));
          if (s.work.blocksRead > 0) sidecarSearches++;
          // Pages only for the results returned (and none at all by the sidecar when nothing matched).
          expect(s.work.pagesRead).toBeLessThanOrEqual(s.results.length);
          // The next page by the cursor, each path's own (they are the same string).
          if (p.next_cursor) {
            const next = await both({ ...q, cursor: p.next_cursor });
            expect(answer(next.side as SearchOutcome)).toEqual(answer(next.pages as SearchOutcome));
          }
        },
      ),
      { numRuns: 120, seed: 53 },
    );
    expect(sidecarSearches).toBeGreaterThan(20);
  }, 600_000);

  it("stops a count past its bound at the same lot either way", async () => {
    const q: SearchQuery = { area: { bbox }, filters: { zones: ["R2"] } };
    const { pages, side } = await both(q, 1000);
    expect((side as SearchOutcome).stopped).toBe(true);
    expect(answer(side as SearchOutcome)).toEqual(answer(pages as SearchOutcome));
  }, 120_000);

  it("reads fewer bytes than the pages for a selective search of the whole world", async () => {
    const q: SearchQuery = {
      area: { bbox },
      filters: { zones: ["R4"], area_m2: { min: 1500 }, station_within_m: 800 },
    };
    const { pages, side } = await both(q);
    const p = pages as SearchOutcome;
    const s = side as SearchOutcome;
    expect(answer(s)).toEqual(answer(p));
    expect(s.work.bytesRead).toBeLessThan(p.work.bytesRead / 2);
  }, 120_000);

  it("refuses a cursor of another search alike", async () => {
    const q: SearchQuery = { area: { bbox }, filters: { zones: ["R2"] }, limit: 5 };
    const first = (await both(q)).side as SearchOutcome;
    const other = await both({ ...q, sort: "fsr", cursor: first.next_cursor });
    expect(other.side).toBeInstanceOf(UnprocessableError);
    expect(String(other.side)).toBe(String(other.pages));
  }, 120_000);
});
