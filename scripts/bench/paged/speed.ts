// `npm run bench -- pack-speed`: warm v2 lookups, tiles and batch rows against the baselines they replace.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "../result.ts";
import type { BuildJob, BuildReport } from "./build-child.ts";
import { runChild } from "./child.ts";
import { benchLots, lotsLabel, withTempDir } from "./common.ts";
import type { SpeedJob } from "./speed-child.ts";
import { warmPointBench } from "./speed-point.ts";
import { World } from "./world.ts";

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

export async function runPackSpeedBenches(): Promise<BenchResult[]> {
  // 1M lots, as packs.ts's baseline: turf's GeoJSON for 5M lots would not fit a sensible heap.
  const lots = Math.min(benchLots(1_000_000), 1_000_000);
  const out: BenchResult[] = [...(await batchForks(5)), ...(await speedChild({ suite: "tile" }))];
  await withTempDir("bench-pack-speed-", async (dir) => {
    const path = join(dir, "city.pack");
    process.stderr.write(`building a ${lotsLabel(lots)}-lot v2 pack ... `);
    const build = await runChild<BuildJob, BuildReport>(here("./build-child.ts"), { lots, out: path });
    process.stderr.write(`${build.stats.seconds.total.toFixed(0)} s\n`);
    out.unshift(...(await warmPointBench(new World(lots), path)));
  });
  return out;
}

const speedChild = (job: SpeedJob) => runChild<SpeedJob, BenchResult[]>(here("./speed-child.ts"), job);

// The batch row in `n` fresh processes (one process's JIT and heap decide a few tenths of its ratio): the fork with
// the median ratio is shown, with every fork's ratio beside it.
async function batchForks(n: number): Promise<BenchResult[]> {
  const forks: BenchResult[][] = [];
  for (let k = 0; k < n; k++) forks.push(await speedChild({ suite: "batch" }));
  const ratio = (f: BenchResult[]) => f[0]?.ratio ?? 0;
  forks.sort((a, b) => ratio(a) - ratio(b));
  const [head, ...rest] = forks[Math.floor(n / 2)] ?? [];
  if (!head) throw new Error("the batch bench gave no result");
  const all = forks.map((f) => `x${ratio(f).toFixed(2)}`).join(", ");
  return [{ ...head, note: `${head.note}; the median of ${n} forks (${all})` }, ...rest];
}
