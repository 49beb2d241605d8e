// A batch row located straight from a v2 pack's lot (locateSite) answers exactly as over the pages the scope gives.
import { openPacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import type { CsvSiteRow } from "../../../src/batch/csv.ts";
import { locateRow, locateSite, rowArea } from "../../../src/batch/locate-row.ts";
import { pagesFor } from "../../../src/packs/request-pages.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { PackScope } from "../../../src/packs/scope.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { packs } from "../chat/demo-packs.ts";

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const others = packs.filter((p) => p !== demo);
let bytes: Uint8Array;
let n = 0;

beforeAll(async () => {
  bytes = await convertToLotsPack(demo, { context: packs });
}, 60_000);

// A scope as src/packs/scope.ts builds it: `base` first in `at`, then the v2 pages.
function scopeOver(base: Pack[]): { scope: PackScope; pack: PagedPack; source: MemorySource } {
  const source = new MemorySource(`public/sydney-demo@locate-${n++}.pack`, bytes);
  const pack = new PagedPack(source, {
    cache: new PageCache(2 ** 28),
    log: () => {},
  });
  const scope: PackScope = {
    visible: openPacks([...base, pack]),
    coverage: [
      ...base.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") })),
      { title: "Sydney demo", bbox: demo.bbox, parcels: true },
    ],
    at: async (areas) => [...base, ...(await pagesFor([pack], areas))],
  };
  return { scope, pack, source };
}

const row = (index: number, fields: Partial<CsvSiteRow>): CsvSiteRow => ({
  index,
  line: index + 2,
  input: {},
  extra: {},
  ...fields,
});

// Lot centres over the demo, points between them (roads, parks: misses), one outside every pack, a lot id, a problem.
function rows(): CsvSiteRow[] {
  const lots = demo.layers.get("parcels");
  const out: CsvSiteRow[] = [];
  const [w, s, e, north] = demo.bbox;
  for (let i = 0; i < (lots?.count ?? 0); i += 61) {
    const [lon, lat] = parcelFromFeature(demo, i).centroid;
    out.push(row(out.length, { lon, lat }));
    out.push(row(out.length, { lon: w + ((i * 0.618) % 1) * (e - w), lat: s + ((i * 0.382) % 1) * (north - s) }));
  }
  out.push(row(out.length, { lon: 140, lat: -20 }));
  out.push(row(out.length, { lotNumber: parcelFromFeature(demo, 5).lotId ?? "" }));
  out.push(row(out.length, { problem: "The latitude is not a number." }));
  return out;
}

// What the batch did per row before locateSite: the scope's packs for the row's area, then locateRow over them.
async function viaPages(scope: PackScope, r: CsvSiteRow) {
  const area = rowArea(r);
  const list = await scope.at(area ? [area] : []);
  const located = locateRow(list, r, scope.coverage);
  return { located, result: located.ok ? scoreSite(siteFacts(list, located.parcel)) : null };
}

async function viaSite(scope: PackScope, r: CsvSiteRow) {
  const { located, packs: list } = await locateSite(scope, r);
  return { located, result: located.ok ? scoreSite(siteFacts(list, located.parcel)) : null };
}

describe("locateSite", () => {
  it("finds the lot, facts and score the scope's pages give, cold (pages read) and warm, hits and misses alike", async () => {
    const { scope } = scopeOver(others);
    const all = rows();
    let hits = 0;
    let misses = 0;
    for (const pass of ["cold", "warm"]) {
      for (const r of all) {
        const got = await viaSite(scope, r);
        const want = await viaPages(scope, r);
        expect(got, `${pass} row ${r.index}`).toEqual(want);
        if (pass === "warm" && got.located.ok) hits++;
        else if (pass === "warm") misses++;
      }
    }
    expect(hits, "lots found (each with its record's facts)").toBeGreaterThan(30);
    expect(misses, "points between lots, outside every pack, or a problem").toBeGreaterThan(5);
  }, 60_000);

  it("leaves a point over a v1 pack's lot to the scope's order (the v1 lot answers here, as `at` puts it first)", async () => {
    const { scope } = scopeOver(packs);
    for (const r of rows().slice(0, 40)) {
      const got = await viaSite(scope, r);
      expect(got).toEqual(await viaPages(scope, r));
      if (got.located.ok) expect(got.located.parcel.record, "the v1 lot, assessed from overlays").toBeUndefined();
    }
  }, 60_000);

  it("reads at most the pages under the point when they are not cached, and nothing once they are", async () => {
    const { scope, pack, source } = scopeOver(others);
    const [lon, lat] = parcelFromFeature(demo, 300).centroid;
    const s = await pack.snapshot();
    source.resetCounts();
    const first = await locateSite(scope, row(0, { lon, lat }));
    expect(first.located.ok).toBe(true);
    expect(source.reads).toBeGreaterThan(0);
    expect(source.reads).toBeLessThanOrEqual(pack.pagesInBox(s, [lon, lat, lon, lat]).length);
    source.resetCounts();
    await locateSite(scope, row(1, { lon, lat }));
    expect(source.reads).toBe(0);
  }, 60_000);
});
