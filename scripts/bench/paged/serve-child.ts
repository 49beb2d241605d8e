// Child: the Worker's reader serving lookups, tiles and batches from a file with the default cache, memory sampled.
import { siteFacts } from "../../../src/assess/facts.ts";
import { pagesFor, pointArea } from "../../../src/packs/request-pages.ts";
import { isolatePageCache, openPack } from "../../../src/packs/paged/index.ts";
import { parcelAt } from "../../../src/packs/spatial.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { tileOf } from "../../../src/tiles/math.ts";
import { childMain } from "./child.ts";
import { FileSource } from "./file-source.ts";
import { type MemoryPeaks, retainedNow, Sampler } from "./sampler.ts";
import { draw, World } from "./world.ts";

export type ServeJob = { lots: number; pack: string; rounds: number; points: number; tiles: number; rows: number };
type Op = "point" | "z15" | "z16" | "batch";
export type OpStats = { count: number; ms: number; misses: number };
export type ServeReport = {
  baseline: number;
  opened: number;
  peaks: MemoryPeaks;
  ops: Record<Op, OpStats>;
  reads: number;
  bytesRead: number;
  cacheBytes: number;
  cachePages: number;
  cacheMax: number;
  hits: number;
  maxRssBytes: number;
  seconds: number;
};

async function run(job: ServeJob): Promise<ServeReport> {
  const t0 = performance.now();
  const world = new World(job.lots);
  const baseline = await retainedNow();
  const source = await FileSource.open(job.pack, { key: "public/bench-city@bench.pack" });
  const pack = await openPack(source);
  const cache = isolatePageCache();
  const opened = await retainedNow();
  const sampler = new Sampler();
  await sampler.collect();
  const ops: Record<Op, OpStats> = {
    point: { count: 0, ms: 0, misses: 0 },
    z15: { count: 0, ms: 0, misses: 0 },
    z16: { count: 0, ms: 0, misses: 0 },
    batch: { count: 0, ms: 0, misses: 0 },
  };
  let hits = 0;
  let seq = 0;
  // Lot k's point: a lot anywhere in the pack, so the mix wanders over all of it and the cache keeps evicting.
  const somewhere = (): [number, number] => {
    seq++;
    return world.pointIn(Math.floor(draw(seq, 21) * world.lots), draw(seq, 22), draw(seq, 23));
  };
  const once = async (op: Op): Promise<void> => {
    const t = performance.now();
    const misses = cache.misses;
    if (op === "point") {
      const [lon, lat] = somewhere();
      if (parcelAt(await pagesFor([pack], [pointArea(lon, lat)]), lon, lat)) hits++;
    } else if (op === "z15" || op === "z16") {
      const [lon, lat] = somewhere();
      await pagedTile(pack, tileOf(lon, lat, op === "z15" ? 15 : 16));
    } else {
      // A batch's rows run one after another, each reading the pages its point needs (src/batch/run.ts).
      for (let r = 0; r < job.rows; r++) {
        const [lon, lat] = somewhere();
        const packs = await pagesFor([pack], [pointArea(lon, lat)]);
        const parcel = parcelAt(packs, lon, lat);
        if (parcel) scoreSite(siteFacts(packs, parcel));
        sampler.sample();
      }
    }
    const s = ops[op];
    s.count++;
    s.ms += performance.now() - t;
    s.misses += cache.misses - misses;
    sampler.sample();
  };
  for (let round = 0; round < job.rounds; round++) {
    for (let k = 0; k < job.points; k++) {
      await once("point");
      if (k % 20 === 19) await sampler.collect();
    }
    for (let k = 0; k < job.tiles; k++) {
      await once(k % 2 === 0 ? "z15" : "z16");
      await sampler.collect();
    }
    await once("batch");
    await sampler.collect();
  }
  const report: ServeReport = {
    baseline,
    opened,
    peaks: sampler.peaks(),
    ops,
    reads: source.reads,
    bytesRead: source.bytesRead,
    cacheBytes: cache.bytes,
    cachePages: cache.size,
    cacheMax: cache.maxBytes,
    hits,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    seconds: (performance.now() - t0) / 1000,
  };
  await source.close();
  return report;
}

await childMain(run);
