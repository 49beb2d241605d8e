// The chat's parcel tools over a v2 lots pack (pages read for their area, facts precomputed) answer as over v1.
import { openPacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { describeParcel } from "../../../src/chat/tools/describe-parcel.ts";
import { findParcels, type FindParcelsOutput } from "../../../src/chat/tools/find-parcels.ts";
import { parcelsIn, resolveArea } from "../../../src/chat/tools/tool-areas.ts";
import { siteFacts } from "../../../src/assess/facts.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { pagesFor, pointArea } from "../../../src/packs/request-pages.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { packs } from "./demo-packs.ts";

let paged: PagedPack;
let source: MemorySource;
const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const base = packs.filter((p) => p !== demo);

beforeAll(async () => {
  source = new MemorySource("public/sydney-demo@test.pack", await convertToLotsPack(demo, { context: packs }));
  paged = new PagedPack(source);
}, 30_000);

describe("chat tools on a v2 lots pack", () => {
  it("describe_parcel: zones with their shares, overlay shares and the stop as the v1 pack's overlays give, controls as scoring reads them", async () => {
    const lots = demo.layers.get("parcels");
    let split = 0;
    for (let i = 0; i < (lots?.count ?? 0); i += 97) {
      const p = parcelFromFeature(demo, i);
      const v1 = describeParcel(packs, { lot_id: p.lotId ?? "" }).output;
      const v2 = describeParcel([...base, ...(await pagesFor([paged], [pointArea(...p.centroid)]))], {
        lot_id: p.lotId ?? "",
      }).output;
      if ("error" in v1 || "error" in v2) throw new Error(`lot ${p.lotId} not found`);
      expect(v2.lot_id).toBe(v1.lot_id);
      // v1 lists zones largest first too; each control is the value over that zone's part (siteFacts).
      const byShare = (z: { code: string | null; share: number }[]) => z.map((x) => [x.code, x.share]).sort();
      expect(byShare(v2.zones)).toEqual(byShare(v1.zones));
      const facts = siteFacts(packs, p);
      expect(v2.zones.map((z) => [z.code, z.fsr, z.height_m, z.min_lot_m2]).sort()).toEqual(
        facts.zones.map((z) => [z.code, z.fsr, z.heightM, z.minLotSizeM2]).sort(),
      );
      if (v2.zones.length > 1) split++;
      expect(v2.nearest_transport).toEqual(v1.nearest_transport);
      for (const o of ["flood", "bushfire", "heritage"] as const)
        expect(v2.overlays[o].share).toBe(v1.overlays[o].share);
      expect(v2.demo_data).toBe(v1.demo_data);
    }
    expect(split, "some sampled lots straddle two zones").toBeGreaterThan(0);
  });

  it("find_parcels in a suburb reads only its pages and finds the lots whose kernel facts pass: main zone, no hazard share", async () => {
    const input = { suburb: "Epping", min_area_m2: 600, zones: ["R2"], hazard_free: true, limit: 50 };
    // Cold: its own page cache and no search tables kept from other tests.
    clearSearchTables();
    const cold = new PagedPack(source, { cache: new PageCache() });
    source.resetCounts();
    const v2 = (await findParcels(openPacks([...base, cold]), input, null)).output as FindParcelsOutput;
    const read = source.bytesRead;
    // The same filter computed from the v1 pack's overlays, lot by lot, with shares rounded as answered (1e-4).
    const area = resolveArea(packs, input, null);
    if (typeof area === "string") throw new Error(area);
    const expected = parcelsIn(packs, area)
      .parcels.map((ref) => ({ ref, f: siteFacts(packs, parcelFromFeature(ref.pack, ref.index)) }))
      // Areas as the pack stores them (0.1 m²): 599.97 m² is 600.0.
      .filter(({ ref, f }) => Math.round(ref.areaM2 * 10) / 10 >= 600 && f.zones[0]?.code === "R2")
      .filter(({ f }) => Math.round(f.hazards.flood * 1e4) === 0 && Math.round(f.hazards.bushfire * 1e4) === 0);
    expect(expected.length).toBeGreaterThan(10);
    expect(v2.matched).toBe(expected.length);
    expect(new Set(v2.parcels.map((p) => p.lot_id))).toEqual(
      new Set(
        expected
          .sort((a, b) => b.ref.areaM2 - a.ref.areaM2)
          .slice(0, v2.parcels.length)
          .map((e) => e.ref.lotId),
      ),
    );
    // Epping is one of six suburbs: its box needs a few of the pack's pages, not all of them.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(source.data.length / 2);
  });
});
