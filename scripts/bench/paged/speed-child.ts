// Child: the demo's batch-row or tile timings in a process that loads only the code it times. The runner loads every
// suite's modules (a database client among them), and that heap keeps V8 marking: a row allocates slower there.
import type { BenchResult } from "../result.ts";
import { childMain } from "./child.ts";
import { loadDemo } from "./demo.ts";
import { batchBench } from "./speed-batch.ts";
import { tileBench } from "./speed-tile.ts";

export type SpeedJob = { suite: "batch" | "tile" };

async function run(job: SpeedJob): Promise<BenchResult[]> {
  const demo = await loadDemo();
  return job.suite === "batch" ? batchBench(demo) : tileBench(demo);
}

await childMain(run);
