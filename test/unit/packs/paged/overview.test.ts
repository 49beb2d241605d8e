// Overview pages: each cell's zone is the zone of most lots centred in it, and a low-zoom tile reads them alone.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../../src/assess/lots-pack.ts";
import { featureBBox } from "../../../../src/geo/bbox.ts";
import { readPackBytes } from "../../../../src/packs/pack-bytes.ts";
import { CELLS_PER_DEGREE } from "../../../../src/packs/paged/overview.ts";
import { clearRootMemo, PagedPack } from "../../../../src/packs/paged/reader.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { siteFacts } from "../../../../src/assess/facts.ts";
import { parcelFromFeature } from "../../../../src/packs/spatial.ts";
import type { Pack } from "../../../../src/packs/types.ts";
import { tileOf } from "../../../../src/tiles/math.ts";
import { pagedTile } from "../../../../src/tiles/paged.ts";

const packs: Pack[] = ["sydney-demo", "sydney-suburbs"].map((n) => readPackBytes(readFileSync(`packs/${n}.pack`), n));
const demo = packs[0] as Pack;
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await convertToLotsPack(demo, { context: packs });
}, 30_000);

const fresh = () => {
  clearRootMemo();
  const source = new MemorySource(`public/overview-${Math.random()}.pack`, bytes);
  return { source, pack: new PagedPack(source, { cache: new PageCache() }) };
};

describe("overview pages", () => {
  it("give every cell the zone of most lots whose box centre lies in it (on a tie, one of the tied zones)", async () => {
    // Brute force from the v1 pack: lots by cell, zones counted from the facts the kernels give.
    const layer = demo.layers.get("parcels");
    const counts = new Map<string, Map<string, number>>();
    for (let i = 0; i < (layer?.count ?? 0); i++) {
      const zone = siteFacts(packs, parcelFromFeature(demo, i)).zones[0]?.code;
      if (!zone || !layer) continue;
      const [w, s, e, n] = featureBBox(layer, i);
      // As the writer sees it: the box of the quantised vertices.
      const q = (v: number) => Math.round(v * 1e7) / 1e7;
      const key = `${Math.floor(((q(w) + q(e)) / 2) * CELLS_PER_DEGREE)},${Math.floor(((q(s) + q(n)) / 2) * CELLS_PER_DEGREE)}`;
      const m = counts.get(key) ?? new Map<string, number>();
      m.set(zone, (m.get(zone) ?? 0) + 1);
      counts.set(key, m);
    }
    const { pack } = fresh();
    const { pages, zones } = await pack.overviewFor([-180, -90, 180, 90]);
    const seen = new Map<string, string>();
    for (const p of pages) {
      for (let i = 0; i < p.ns.length; i++) {
        for (let k = 0; k < (p.ns[i] as number); k++) {
          seen.set(`${(p.xs[i] as number) + k},${p.ys[i]}`, zones[p.zones[i] as number] as string);
        }
      }
    }
    expect(seen.size).toBe(counts.size);
    let contested = 0;
    for (const [key, m] of counts) {
      const best = Math.max(...m.values());
      const winners = [...m].filter(([, n]) => n === best).map(([z]) => z);
      expect(winners, key).toContain(seen.get(key));
      if (m.size > 1) contested++;
    }
    expect(contested, "some cells hold lots of two zones").toBeGreaterThan(0);
  });

  it("a z10 to z13 tile is drawn from the overview in one range read after the root; nothing below z10", async () => {
    const { source, pack } = fresh();
    await pack.snapshot();
    const [lon, lat] = parcelFromFeature(demo, 0).centroid;
    for (const z of [10, 11, 12, 13]) {
      source.resetCounts();
      const tile = await pagedTile(pack, tileOf(lon, lat, z));
      expect(tile?.length ?? 0, `z${z}`).toBeGreaterThan(0);
      expect(new TextDecoder("latin1").decode(tile ?? new Uint8Array())).toContain("zoning");
      expect(source.reads, `z${z} reads`).toBeLessThanOrEqual(1);
    }
    source.resetCounts();
    expect(await pagedTile(pack, tileOf(lon, lat, 9))).toBeNull();
    expect(source.reads).toBe(0);
  });

  it("a damaged overview page is refused alone: lots still answer", async () => {
    const { source, pack } = fresh();
    const s = await pack.snapshot();
    const start = s.root.overviewOffsets[0] as number;
    source.data[start + 20] = (source.data[start + 20] as number) ^ 0xff;
    const [lon, lat] = parcelFromFeature(demo, 0).centroid;
    await expect(pagedTile(pack, tileOf(lon, lat, 12))).rejects.toThrow(/overview page 0 refused: checksum mismatch/);
    expect((await pack.featuresAt(lon, lat)).features.length).toBe(1);
  });
});
