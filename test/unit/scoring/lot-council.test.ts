// A lot's council reaches the score by both paths (docs/scoring.md section 5.6): a v1 pack's facts read it from the
// suburbs layer, and a lots pack's record carries the same, so the LEP rule a score applies does not depend on the pack.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { LOT_COLUMNS, LOT_ID_COLUMN, LOT_SUMMARY, lotValues } from "../../../src/packs/paged/lot-columns.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { openPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { pagesFor } from "../../../src/packs/request-pages.ts";
import { PARCELS, parcelFromFeature } from "../../../src/packs/spatial.ts";
import { scoreSite } from "../../../src/scoring/index.ts";

const load = (f: string) => readPackBytes(readFileSync(f), f);
const demo = load("packs/sydney-demo.pack");
const suburbs = load("packs/sydney-suburbs.pack");

describe("the lot's council", () => {
  it("is its suburb's in v1 facts, the same in its lots-pack record, and what the score's LEP rule is chosen by", async () => {
    const p = parcelFromFeature(demo, 0);
    const v1 = siteFacts([demo, suburbs], p);
    expect(typeof v1.lga).toBe("string");
    const record = lotRecordFrom([demo, suburbs], p);
    expect(record.place.lga).toBe(v1.lga);
    const bytes = await encodePack([{ geometry: p.polygon as AreaGeometry, values: lotValues(record) }], {
      id: "council",
      version: "1",
      columns: LOT_COLUMNS,
      lotIdColumn: LOT_ID_COLUMN,
      summary: LOT_SUMMARY,
    });
    const pack = await openPack(new MemorySource("council.pack", bytes), {
      cache: new PageCache(2 ** 24),
      log: () => {},
    });
    const s = await pack.snapshot();
    const [view] = await pagesFor([pack], [{ box: s.root.meta.bbox }]);
    const hit = view && (view.layers.get(PARCELS)?.count ?? 0) > 0 ? parcelFromFeature(view, 0) : null;
    expect(hit?.record).toBeDefined();
    const v2 = siteFacts([], hit as NonNullable<typeof hit>);
    expect(v2.lga).toBe(v1.lga);
    const options = (f: typeof v1) => scoreSite(f).yieldOptions.map((o) => [o.basis, o.permitted, o.clause]);
    expect(options(v2)).toEqual(options(v1));
  });

  it("is not known (null) where no suburbs layer covers the lot and its parcel records none", () => {
    expect(siteFacts([demo], parcelFromFeature(demo, 0)).lga).toBeNull();
  });
});
