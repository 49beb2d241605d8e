// Child: builds the world's v2 pack into a file, sampling memory as pages close (the generator's sort done first).
import { rmSync } from "node:fs";
import { type BuildStats, buildPackFile, writeOrder } from "./build.ts";
import { childMain } from "./child.ts";
import { type MemoryPeaks, retainedNow, Sampler } from "./sampler.ts";
import { World } from "./world.ts";

export type BuildJob = { lots: number; out: string };
export type BuildReport = { stats: BuildStats; baseline: number; peaks: MemoryPeaks; maxRssBytes: number };

async function run(job: BuildJob): Promise<BuildReport> {
  const world = new World(job.lots);
  const orderPath = `${job.out}.order`;
  // The Hilbert sort is the generator's, not the builder's: done and dropped before memory is watched.
  writeOrder(world, orderPath);
  const baseline = await retainedNow();
  const sampler = new Sampler();
  try {
    const stats = await buildPackFile(world, orderPath, job.out, sampler);
    return { stats, baseline, peaks: sampler.peaks(), maxRssBytes: process.resourceUsage().maxRSS * 1024 };
  } finally {
    rmSync(orderPath, { force: true });
  }
}

await childMain(run);
