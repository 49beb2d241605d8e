// Cursors over lots that tie on every visible key (an upload repeating one lot id over lots of one area): paging
// with limit 1 returns every lot exactly once, on v1 and v2 packs, because the order ends in a per-lot ordinal.
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { openPacks, pagedPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { buildLayer, type InputFeature } from "../../../scripts/pack/layers.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import type { SearchQuery } from "../../../src/search/query.ts";
import { packs } from "../chat/demo-packs.ts";

const context = packs.filter((p) => p.id !== "sydney-demo");
const TWINS = 10;
const W = 151.1;
const S = -33.8;
const SIZE = 0.0002;

// Ten lots of one id and one size, side by side along a parallel (so their areas are equal to the 0.1 m²).
function twin(k: number): InputFeature {
  const w = W + k * SIZE * 2;
  const ring = [
    [w, S],
    [w + SIZE, S],
    [w + SIZE, S + SIZE],
    [w, S + SIZE],
    [w, S],
  ];
  return { properties: { lot_id: "1//DP1" }, geometry: { type: "Polygon", coordinates: [ring] } };
}

let twins: Pack;
let v2: VisiblePacks;

beforeAll(async () => {
  twins = memoryPack({
    id: "twins",
    version: "1.0.0",
    meta: { title: "twins", attribution: "test fixture", licence: "CC0" },
    layers: [
      buildLayer(
        "parcels",
        Array.from({ length: TWINS }, (_, k) => twin(k)),
        true,
      ).layer,
    ],
  });
  // Tiny pages: the twins spread over several pages, so the ordinal must tell pages apart too.
  const bytes = await convertToLotsPack(twins, { context: [twins, ...context], pageBytes: 256 });
  v2 = openPacks([...context, new PagedPack(new MemorySource("public/twins.pack", bytes))]);
}, 60_000);

const query: SearchQuery = { area: { bbox: [W - 0.001, S - 0.001, W + 0.01, S + 0.001] }, sort: "area" };

async function pageByOne(p: VisiblePacks): Promise<{ count: number; centers: string[] }> {
  const centers: string[] = [];
  let cursor: string | null = null;
  let count = 0;
  for (let guard = 0; guard < 3 * TWINS; guard++) {
    const a = await searchSites(p, { ...query, limit: 1, cursor });
    count = a.count;
    centers.push(...a.results.map((r) => `${r.lot_id} ${r.area_m2} ${r.center.join(",")}`));
    cursor = a.next_cursor;
    if (!cursor) break;
  }
  return { count, centers };
}

describe("a total order for cursors", () => {
  it("v1: ten lots sharing a lot id and an area, paged one at a time, each come back exactly once", async () => {
    const got = await pageByOne(openPacks([twins, ...context]));
    expect(got.count).toBe(TWINS);
    expect(got.centers.length).toBe(TWINS);
    expect(new Set(got.centers).size).toBe(TWINS);
    // They tie on the sort value and the lot id: only the ordinal orders them.
    expect(new Set(got.centers.map((c) => c.split(" ").slice(0, 2).join(" "))).size).toBe(1);
  });

  it("v2 over several pages: the same, each lot exactly once", async () => {
    expect((await pagedPacks(v2)[0]?.snapshot())?.root.pageCounts.length).toBeGreaterThan(1);
    const got = await pageByOne(v2);
    expect(got.count).toBe(TWINS);
    expect(new Set(got.centers).size).toBe(TWINS);
    expect(got.centers.length).toBe(TWINS);
  });
});
