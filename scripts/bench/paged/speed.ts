// `npm run bench -- pack-speed`: warm v2 lookups, tiles and batch rows against the baselines they replace.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "../result.ts";
import type { BuildJob, BuildReport } from "./build-child.ts";
import { runChild } from "./child.ts";
import { benchLots, lotsLabel, withTempDir } from "./common.ts";
import { loadDemo } from "./demo.ts";
import { batchBench } from "./speed-batch.ts";
import { warmPointBench } from "./speed-point.ts";
import { tileBench } from "./speed-tile.ts";
import { World } from "./world.ts";

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

export async function runPackSpeedBenches(): Promise<BenchResult[]> {
  // 1M lots, as packs.ts's baseline: turf's GeoJSON for 5M lots would not fit a sensible heap.
  const lots = Math.min(benchLots(1_000_000), 1_000_000);
  const demo = await loadDemo();
  const out: BenchResult[] = [...(await batchBench(demo)), ...(await tileBench(demo))];
  await withTempDir("bench-pack-speed-", async (dir) => {
    const path = join(dir, "city.pack");
    process.stderr.write(`building a ${lotsLabel(lots)}-lot v2 pack ... `);
    const build = await runChild<BuildJob, BuildReport>(here("./build-child.ts"), { lots, out: path });
    process.stderr.write(`${build.stats.seconds.total.toFixed(0)} s\n`);
    out.unshift(...(await warmPointBench(new World(lots), path)));
  });
  return out;
}
