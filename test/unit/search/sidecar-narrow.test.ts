// Counts from block headers and the first page's top-k bound (issue 53): over the 50,000-lot test world, a search that
// leaves blocks unread gives the answer of one that reads every block that may match (count, results in order, cursor,
// box, the area's range), page after page by its cursor, for each sort, and reads fewer blocks and bytes doing so.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../../../scripts/dev/test-world.ts";
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { type SearchOutcome, searchSites } from "../../../src/search/engine.ts";
import type { SearchArea, SearchFilters, SearchQuery, SearchSort } from "../../../src/search/query.ts";
import { buildSidecar } from "../../../src/search/sidecar/build.ts";
import { COLUMNS, SIDECAR_VERSION, type SidecarHead } from "../../../src/search/sidecar/format.ts";
import { clearSidecarBlocks, Sidecar } from "../../../src/search/sidecar/reader.ts";
import { attachSidecar, sidecarKey } from "../../../src/search/sidecar/registry.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";

let packs: VisiblePacks;
let bbox: [number, number, number, number];
let worldPath: string;
let sidecarBytes: Uint8Array;

beforeAll(async () => {
  const world = await testWorld(() => {});
  worldPath = world.path;
  const key = "public/world@narrow.pack";
  const pack = new PagedPack(new MemorySource(key, new Uint8Array(readFileSync(world.path))));
  sidecarBytes = await buildSidecar(pack);
  attachSidecar(pack, new MemorySource(sidecarKey(key), sidecarBytes));
  bbox = (await pack.snapshot()).root.meta.bbox as [number, number, number, number];
  packs = openPacks([readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs.pack"), pack]);
}, 600_000);

// What a caller sees of an answer: everything but the work it took.
const answer = (o: SearchOutcome) => ({
  count: o.count,
  results: o.results,
  next_cursor: o.next_cursor,
  bbox: o.bbox,
  areaRange: o.areaRange,
  refs: o.refs.map((r) => ("pack" in r ? { index: r.index } : { page: r.page, index: r.index })),
});

// One search cold, narrowed (the engine's own way) or reading every block that may match.
async function cold(q: SearchQuery, narrow: boolean): Promise<SearchOutcome> {
  clearSearchTables();
  clearSidecarBlocks();
  return searchSites(packs, q, { narrow });
}

// The head of a sidecar's bytes.
function headOf(bytes: Uint8Array): SidecarHead {
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len))) as SidecarHead;
}

// Three pages by each path's cursor: the same answers, and the narrowed path's blocks read and counted.
async function pagesAlike(q: SearchQuery) {
  const work = [];
  let cursor: string | undefined;
  for (let page = 0; page < 3; page++) {
    const full = await cold({ ...q, cursor }, false);
    const narrow = await cold({ ...q, cursor }, true);
    expect(answer(narrow)).toEqual(answer(full));
    expect(full.work.blocksCounted).toBe(0);
    // Every block the full read reads is read or counted by the narrowed one, never both (a cursor's own block, read to
    // rank it, is in the cache after: not counted as read again).
    if (page === 0) expect(narrow.work.blocksRead + narrow.work.blocksCounted).toBe(full.work.blocksRead);
    else expect(narrow.work.blocksRead + narrow.work.blocksCounted).toBeLessThanOrEqual(full.work.blocksRead);
    work.push({ narrow: narrow.work, full: full.work });
    if (!narrow.next_cursor) break;
    cursor = narrow.next_cursor;
  }
  return work;
}

const SORTS: SearchSort[] = ["area", "fsr", "height", "station"];

describe("a sidecar search narrowed by block headers", () => {
  it("counts the whole world from its headers as a full read counts it, and reads a few blocks for the first page", async () => {
    for (const sort of SORTS) {
      const work = await pagesAlike({ area: { bbox }, sort, limit: 3 });
      expect(work.length).toBe(3);
      // Sorts of few distinct values (an FSR, a height) tie across blocks: their blocks may all be read, never fewer lots counted.
      if (sort !== "area" && sort !== "station") continue;
      const [first] = work;
      if (!first) throw new Error("no first page");
      expect(first.narrow.blocksCounted).toBeGreaterThan(0);
      expect(first.narrow.blocksRead).toBeLessThan(first.full.blocksRead / 2);
      expect(first.narrow.bytesRead).toBeLessThan(first.full.bytesRead / 2);
      expect(first.narrow.lotsTested).toBeLessThan(first.full.lotsTested / 2);
    }
  }, 300_000);

  it("gives the same first page and cursor pages as a full read, for each sort, with filters blocks pass partly", async () => {
    // Bounds every lot of some blocks meets (counted from headers), and filters no block passes whole.
    const filters: SearchFilters[] = [
      { area_m2: { min: 150 } },
      { area_m2: { min: 150, max: 20_000 } },
      { area_m2: { min: 170 } },
      { exclude: ["bushfire"] },
      { station_within_m: 2500 },
      { zones: ["R2", "R3"], fsr_min: 0.5 },
      { meets_min_lot: true },
    ];
    let counted = 0;
    for (const sort of SORTS) {
      for (const f of filters) {
        for (const work of await pagesAlike({ area: { bbox }, filters: f, sort, limit: 2 })) {
          counted += work.narrow.blocksCounted;
        }
      }
    }
    // Some of these filters leave blocks every lot of which passes: counted, not read.
    expect(counted).toBeGreaterThan(0);
  }, 300_000);

  it("counts the blocks wholly inside a box from their headers, and reads those across its edge", async () => {
    // West of the middle block's east edge (blocks hold a zone's run, so not a share of the world): half the blocks inside.
    const edges = headOf(sidecarBytes)
      .blocks.map((e) => e.box[2])
      .sort((a, b) => a - b);
    const east = (edges[Math.floor(edges.length / 2)] as number) + 1e-7;
    expect(east).toBeLessThan(bbox[2]);
    const west: [number, number, number, number] = [bbox[0], bbox[1], east, bbox[3]];
    let counted = 0;
    for (const sort of SORTS) {
      for (const work of await pagesAlike({ area: { bbox: west }, sort, limit: 1 }))
        counted += work.narrow.blocksCounted;
    }
    expect(counted).toBeGreaterThan(0);
  }, 300_000);

  it("answers a named area as a full read does", async () => {
    const work = await pagesAlike({ area: { lga: "Canterbury-Bankstown" }, limit: 5 });
    expect(work.length).toBeGreaterThan(0);
  }, 300_000);

  it("answers generated searches as a full read does, with small pages that leave blocks unread", async () => {
    const box = fc
      .tuple(fc.double({ min: 0, max: 0.5, noNaN: true }), fc.double({ min: 0.3, max: 1, noNaN: true }))
      .map(([from, size]): SearchArea => {
        const w = bbox[2] - bbox[0];
        return { bbox: [bbox[0] + w * from, bbox[1], bbox[0] + w * Math.min(1, from + size), bbox[3]] };
      });
    // Half with a bound every lot of some blocks meets alone (those blocks counted unread), half with others too.
    const sole = fc.constantFrom<SearchFilters>({}, { area_m2: { min: 100 } }, { area_m2: { min: 150, max: 20_000 } });
    const mixed = fc.record(
      {
        area_m2: fc.record({ min: fc.constantFrom(100, 150, 170, 210), max: fc.constantFrom(9000, 20_000) }),
        exclude: fc.subarray(["flood", "bushfire", "heritage"] as const, { minLength: 1 }),
        station_within_m: fc.constantFrom(2500, 6000),
        meets_min_lot: fc.constant(true),
        // Zones: their runs of blocks (the sidecar's sort key), a cursor's lot found in its zone's run.
        zones: fc.constantFrom<string[]>(["R4"], ["R2", "R3"], ["E1", "MU1", "R4"]),
      },
      { requiredKeys: [] },
    );
    const filter = fc.oneof(sole, mixed);
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(
        box,
        filter,
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 4 }),
        async (a, f, sort, limit) => {
          for (const work of await pagesAlike({ area: a, filters: f, sort, limit }))
            counted += work.narrow.blocksCounted;
        },
      ),
      { numRuns: 40, seed: 53 },
    );
    expect(counted).toBeGreaterThan(0);
  }, 600_000);

  it("orders its rows by main zone, so a search for a zone near a station reads that zone's run of blocks", async () => {
    const head = headOf(sidecarBytes);
    expect(head.v).toBe(SIDECAR_VERSION);
    // Zones by name, blocks in that order: each block's first zone is no earlier than the last block's last.
    const names = head.blocks.map((e) => e.zones.map((k) => head.dicts.zone[k - 1] ?? "").sort());
    names.forEach((zones, b) => {
      const before = names[b - 1];
      if (before && before.length > 0 && zones.length > 0)
        expect((zones[0] as string) >= (before.at(-1) as string)).toBe(true);
    });
    // Most blocks hold one zone; a zone's lots fill the blocks of its run and few more.
    expect(head.blocks.filter((e) => e.zones.length === 1).length).toBeGreaterThan(head.blocks.length / 2);
    const q: SearchQuery = {
      area: { bbox },
      filters: { zones: ["R4"], station_within_m: 800 },
      sort: "area",
      limit: 3,
    };
    const work = await pagesAlike(q);
    const r4 = head.dicts.zone.indexOf("R4") + 1;
    const r4Blocks = head.blocks.filter((e) => e.zones.includes(r4)).length;
    const r4Lots = head.blocks.reduce((n, e) => n + (e.zones.length === 1 && e.zones[0] === r4 ? e.rows : 0), 0);
    expect(r4Blocks).toBeLessThanOrEqual(Math.ceil(r4Lots / 4096) + 2);
    expect(work[0]?.full.blocksRead).toBeLessThanOrEqual(r4Blocks);
  }, 300_000);

  it("refuses a sidecar of version 3 (pack order, no pack rows), and search reads the pages to the same answer", async () => {
    const head = headOf(sidecarBytes);
    const json = new TextEncoder().encode(
      JSON.stringify({ ...head, v: 3, columns: COLUMNS.filter((c) => c !== "row") }),
    );
    const old = new Uint8Array(Math.ceil((8 + json.length) / 8) * 8);
    old.set(sidecarBytes.subarray(0, 8));
    new DataView(old.buffer).setUint32(4, json.length, true);
    old.set(json, 8);
    const source = new MemorySource("public/world@v3.pack.search", old);
    await expect(Sidecar.open(source)).rejects.toThrow(`got v3 data when expected v${SIDECAR_VERSION}`);
    const key = "public/world@v3.pack";
    const pack = new PagedPack(new MemorySource(key, new Uint8Array(readFileSync(worldPath))));
    attachSidecar(pack, source);
    const v3 = openPacks([readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs.pack"), pack]);
    const q: SearchQuery = { area: { lga: "Canterbury-Bankstown" }, filters: { zones: ["R4"] }, limit: 5 };
    const now = await cold(q, true);
    clearSearchTables();
    clearSidecarBlocks();
    const before = await searchSites(v3, q);
    expect(answer(before)).toEqual(answer(now));
    expect(before.work.blocksRead).toBe(0);
    expect(before.work.pagesRead).toBeGreaterThan(0);
  }, 300_000);
});
