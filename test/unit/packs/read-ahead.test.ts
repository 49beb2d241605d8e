// A batch's read-ahead (packs/read-ahead.ts): every point's pages in one plan, no more requests than points, so the
// rows after it read nothing; over the demo as a v2 pack of 4 KiB pages, through an R2 double that counts reads.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { readAheadPoints } from "../../../src/packs/read-ahead.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";

const pack = (name: string) => readPackBytes(readFileSync(new URL(`../../../packs/${name}`, import.meta.url)), name);
let bytes: Uint8Array;
let points: [number, number][];
let key = 0;

beforeAll(async () => {
  const demo = pack("sydney-demo.pack");
  bytes = await convertToLotsPack(demo, { context: [demo], pageBytes: 4 * 1024 });
  const lots = demo.layers.get("parcels")?.count ?? 0;
  // 50 lots spread over the demo, each point its lot's centroid.
  points = Array.from({ length: 50 }, (_, k) => {
    const p = parcelFromFeature(demo, Math.floor(((k + 0.5) * lots) / 50));
    return [p.centroid[0], p.centroid[1]];
  });
});

async function reader(cacheBytes = 2 ** 30) {
  const source = new MemorySource(`public/demo@ahead-${++key}.pack`, bytes);
  const p = new PagedPack(source, { cache: new PageCache(cacheBytes) });
  await p.snapshot();
  source.resetCounts();
  return { source, p };
}

// The rows one after another, as runBatch locates them: the lot under each point.
async function rows(p: PagedPack): Promise<number> {
  let found = 0;
  for (const [lon, lat] of points) if ((await p.lotAt(lon, lat)).lot) found++;
  return found;
}

describe("a batch's read-ahead", () => {
  it("reads every point's pages in no more requests than points, fewer than the rows alone; the rows then read nothing", async () => {
    const alone = await reader();
    const foundAlone = await rows(alone.p);
    const ahead = await reader();
    await readAheadPoints([ahead.p], points);
    const readAhead = ahead.source.reads;
    expect(readAhead).toBeLessThanOrEqual(points.length);
    expect(readAhead).toBeLessThan(alone.source.reads);
    expect(await rows(ahead.p)).toBe(foundAlone);
    expect(foundAlone).toBe(points.length);
    expect(ahead.source.reads).toBe(readAhead);
    clearRootMemo();
  });

  it("reads nothing when the pages would fill more than a quarter of the cache: each row reads its own", async () => {
    const small = await reader(64 * 1024);
    await readAheadPoints([small.p], points);
    expect(small.source.reads).toBe(0);
    expect(await rows(small.p)).toBe(points.length);
    expect(small.source.reads).toBeGreaterThan(0);
    clearRootMemo();
  });
});
