// `npm run bench -- pack-memory`: peak memory of the Worker's reader serving a 5M-lot v2 pack, beside v1 at 1M.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOT_COLUMNS } from "../../../src/packs/paged/index.ts";
import type { BenchResult } from "../result.ts";
import type { BuildJob, BuildReport } from "./build-child.ts";
import { runChild } from "./child.ts";
import { benchLots, claim, lotsLabel, withTempDir } from "./common.ts";
import { FileSource } from "./file-source.ts";
import { mib } from "./sampler.ts";
import { bytesPerLotByPart, largestParts } from "./sections.ts";
import type { ServeJob, ServeReport } from "./serve-child.ts";
import type { V1Job, V1Report } from "./v1-child.ts";

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const CLAIM_MB = 48;

export async function runPackMemoryBenches(): Promise<BenchResult[]> {
  const lots = benchLots();
  const label = lotsLabel(lots);
  return withTempDir("bench-pack-memory-", async (dir) => {
    const pack = join(dir, "city.pack");
    process.stderr.write(`building a ${label}-lot v2 pack ... `);
    const build = await runChild<BuildJob, BuildReport>(here("./build-child.ts"), { lots, out: pack });
    process.stderr.write(`${build.stats.seconds.total.toFixed(0)} s\nsizing its parts ... `);
    const source = await FileSource.open(pack);
    const parts = await bytesPerLotByPart(source);
    await source.close();
    process.stderr.write("done\nserving lookups, tiles and batches ... ");
    const job: ServeJob = { lots, pack, rounds: 20, points: 150, tiles: 20, rows: 50 };
    const serve = await runChild<ServeJob, ServeReport>(here("./serve-child.ts"), job);
    process.stderr.write(`${serve.seconds.toFixed(0)} s\nloading a 1M-lot v1 pack ... `);
    const v1 = await runChild<V1Job, V1Report>(here("./v1-child.ts"), { side: 1000, queries: 20_000 });
    process.stderr.write("done\n");

    const peak = serve.peaks.retained;
    const v1Peak = v1.peaks.retained;
    const bytesPerLot = build.stats.bytes / lots;
    const v1BytesPerLot = v1.packBytes / v1.lots;
    const o = serve.ops;
    const mean = (s: { count: number; ms: number }) => (s.count > 0 ? s.ms / s.count : 0).toFixed(1);
    const s = build.stats.seconds;
    return [
      {
        name: `v2 ${label} lots: peak heap + arrayBuffers serving`,
        value: mib(peak),
        unit: "MiB",
        baseline: mib(v1Peak),
        ratio: v1Peak / peak,
        note: `${claim(peak <= CLAIM_MB * 1e6, `<= ${CLAIM_MB} MB`)} (${(peak / 1e6).toFixed(1)} MB); after global.gc(), ${serve.peaks.samples} samples; baseline: v1 ${lotsLabel(v1.lots)} lots loaded whole and queried, same measure`,
      },
      {
        name: "  of it the process before the pack was opened",
        value: mib(serve.baseline),
        unit: "MiB",
        note: "node + the reader's modules, no pack",
      },
      {
        name: "  page cache's own count at the end",
        value: mib(serve.cacheBytes),
        unit: "MiB",
        note: `${serve.cachePages} decoded pages, budget ${mib(serve.cacheMax).toFixed(0)} MiB; the rest is state outside the budget`,
      },
      {
        name: "  outside the budget (peak - process - cache)",
        value: mib(peak - serve.baseline - serve.cacheBytes),
        unit: "MiB",
        note: "roots, page indexes and grids, scratch; a page's view, point grid and tile tags are counted in the cache",
      },
      {
        name: "  peak with garbage not yet collected",
        value: mib(serve.peaks.live),
        unit: "MiB",
        note: `max RSS ${mib(serve.maxRssBytes).toFixed(0)} MiB (V8 heap reserve, code, node)`,
      },
      {
        name: "  served",
        value: o.point.count + o.z15.count + o.z16.count + o.batch.count,
        unit: "ops",
        note: `${o.point.count} parcel-at-point (${mean(o.point)} ms), ${o.z15.count} z15 + ${o.z16.count} z16 tiles (${mean(o.z15)} / ${mean(o.z16)} ms), ${o.batch.count} batches of ${job.rows} rows (${mean(o.batch)} ms); ${serve.reads} file reads, ${mib(serve.bytesRead).toFixed(0)} MiB; spread over the whole pack, no latency`,
      },
      {
        name: `v1 ${lotsLabel(v1.lots)} lots: heap + arrayBuffers, loaded and queried`,
        value: mib(v1Peak),
        unit: "MiB",
        note: `arrayBuffers ${mib(v1.loadedArrayBuffers).toFixed(0)} MiB collected (packs.ts's 308 MiB is before collection, encoder scratch included); process before the pack ${mib(v1.baseline).toFixed(1)} MiB; ${v1.hits} of 20000 parcelAt hits`,
      },
      {
        name: `v2 ${label} lots: build time (streamed to a file)`,
        value: s.total,
        unit: "s",
        note: `${Math.round(lots / s.total)} lots/s; generate ${s.generate.toFixed(0)} s, PackWriter ${s.encode.toFixed(0)} s, file writes ${s.write.toFixed(0)} s; ${build.stats.pages} pages; one core`,
      },
      {
        name: "  build peak heap + arrayBuffers",
        value: mib(build.peaks.retained),
        unit: "MiB",
        note: `after gc every 64 pages and at finish; ${mib(build.peaks.live).toFixed(0)} MiB with garbage; max RSS ${mib(build.maxRssBytes).toFixed(0)} MiB; process before ${mib(build.baseline).toFixed(1)} MiB`,
      },
      {
        name: `v2 ${label} lots: bytes per lot`,
        value: bytesPerLot,
        unit: "B/lot",
        baseline: v1BytesPerLot,
        ratio: v1BytesPerLot / bytesPerLot,
        note: `${claim(bytesPerLot <= 100, "<= 100")}; ${(build.stats.bytes / 2 ** 20).toFixed(0)} MiB file (${build.stats.stored.tiles} tiles stored whole, ${(build.stats.stored.bytes / 2 ** 20).toFixed(1)} MiB), ${LOT_COLUMNS.length} fact columns; largest: ${largestParts(parts, 9)}; baseline: the v1 grid (lot_id and area only)`,
      },
    ];
  });
}
