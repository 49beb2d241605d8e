// A lot's shape (frontage and regularity) is measured once, when its lots pack is built, from the source geometry:
// a batch row, a score or a report reads it from the page instead of measuring the lot's polygon again.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { pagesFor } from "../../../src/packs/request-pages.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { LOT_COLUMNS, LOT_ID_COLUMN, LOT_SUMMARY, lotValues } from "../../../src/packs/paged/lot-columns.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { openPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { PARCELS, parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { ParcelHit } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { shownShape } from "../../../src/scoring/geometry.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import type { SiteFacts } from "../../../src/scoring/types.ts";
import { lotsPackWithout } from "../../support/older-lots-pack.ts";

const load = (f: string) => readPackBytes(readFileSync(f), f);
const demo = load("packs/sydney-demo.pack");
const suburbs = load("packs/sydney-suburbs.pack");
const demoLots = demo.layers.get(PARCELS)?.count ?? 0;

async function lotsOf(bytes: Uint8Array, key: string): Promise<ParcelHit[]> {
  const pack = await openPack(new MemorySource(key, bytes), { cache: new PageCache(2 ** 28), log: () => {} });
  const s = await pack.snapshot();
  const views: Pack[] = await pagesFor([pack], [{ box: s.root.meta.bbox }]);
  return views.flatMap((view) =>
    Array.from({ length: view.layers.get(PARCELS)?.count ?? 0 }, (_, i) => parcelFromFeature(view, i)),
  );
}

// The demo's lots by id, as the v1 pack holds them (the geometry the v2 pack was built from).
const sources = new Map<string, ParcelHit>();
for (let i = 0; i < demoLots; i++) {
  const p = parcelFromFeature(demo, i);
  if (p.lotId !== null) sources.set(p.lotId, p);
}

describe("a lot's shape in a lots pack", () => {
  it("is stored for every demo lot as measured from its source geometry, and a v2 score shows it", async () => {
    const hits = await lotsOf(await convertToLotsPack(demo, { context: [demo, suburbs] }), "shape.pack");
    expect(hits.length).toBe(demoLots);
    let differs = 0;
    for (const hit of hits) {
      const source = sources.get(hit.lotId ?? "");
      expect(source, String(hit.lotId)).toBeDefined();
      const want = shownShape((source as ParcelHit).polygon);
      expect(hit.record?.facts.shape, String(hit.lotId)).toEqual(want);
      expect(hit.record?.place.frontageM).toBe(want.frontageM);
      const got = scoreSite(siteFacts([], hit));
      expect([got.frontageM, got.regularity]).toEqual([want.frontageM, want.regularity]);
      // The page's quantised vertices may round a lot's measure the other way: the stored shape is the source's.
      const measured = shownShape(hit.polygon);
      if (measured.frontageM !== want.frontageM || measured.regularity !== want.regularity) differs++;
    }
    expect(differs).toBeLessThan(hits.length / 50);
  });

  it("is what scoreSite shows instead of measuring the polygon, which it measures when the facts have no shape", () => {
    const facts: SiteFacts = siteFacts([demo], parcelFromFeature(demo, 0));
    const measured = shownShape(facts.polygon);
    const plain = scoreSite(facts);
    expect([plain.frontageM, plain.regularity]).toEqual([measured.frontageM, measured.regularity]);
    const stored = scoreSite({ ...facts, shape: { frontageM: measured.frontageM + 7.3, regularity: 0.42 } });
    expect(stored.frontageM).toBeCloseTo(measured.frontageM + 7.3, 9);
    expect(stored.regularity).toBe(0.42);
  });

  it("is left unset by a lots pack built before the regularity column, whose score measures the page's polygon", async () => {
    const some = [0, 1, 2].map((i) => parcelFromFeature(demo, i));
    const bytes = await lotsPackWithout(some, [demo, suburbs], (name) => name === "regularity", {
      id: "before-regularity",
    });
    const hits = await lotsOf(bytes, "before-regularity.pack");
    expect(hits).toHaveLength(3);
    for (const hit of hits) {
      expect(hit.record, "still a lots pack").toBeDefined();
      expect(hit.record?.facts.shape).toBeUndefined();
      const got = scoreSite(siteFacts([], hit));
      expect(got.frontageM).toBe(shownShape(hit.polygon).frontageM);
      expect(got.regularity).toBe(shownShape(hit.polygon).regularity);
    }
  });

  it("is not read from a frontage at the column's cap: a lot that wide has its shape measured", async () => {
    const p = parcelFromFeature(demo, 0);
    const record = lotRecordFrom([demo, suburbs], p);
    const wide = { ...record, facts: { ...record.facts, shape: { frontageM: 7_000, regularity: 0.9 } } };
    wide.place = { ...record.place, frontageM: 7_000 };
    const bytes = await encodePack([{ geometry: p.polygon as AreaGeometry, values: lotValues(wide) }], {
      id: "wide",
      version: "1",
      columns: LOT_COLUMNS,
      lotIdColumn: LOT_ID_COLUMN,
      summary: LOT_SUMMARY,
    });
    const [hit] = await lotsOf(bytes, "wide.pack");
    expect(hit?.record?.place.frontageM).toBe(6_553.4);
    expect(hit?.record?.facts.shape).toBeUndefined();
    expect(scoreSite(siteFacts([], hit as ParcelHit)).frontageM).toBe(shownShape((hit as ParcelHit).polygon).frontageM);
  });
});
