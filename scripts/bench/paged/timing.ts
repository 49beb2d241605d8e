// CPU-time sampling for the speed suites, async-aware: a v2 query awaits its pages even when they are cached.
import { median } from "../result.ts";
import { cpuUs } from "./common.ts";

export type Loop = (from: number, to: number) => Promise<number>;

/**
 * Runs each loop over the same chunk of queries in turn, several rounds; median CPU us per query, first hits. A sample
 * repeats its chunk until `minUs` of CPU is spent: the thread CPU clock ticks in milliseconds, coarse beside a chunk.
 */
export async function interleaved(
  loops: readonly Loop[],
  queries: number,
  rounds: number,
  chunk: number,
  minUs = 100_000,
): Promise<{ us: number[]; hits: number[] }> {
  const samples: number[][] = loops.map(() => []);
  const hits: number[] = loops.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    const from = (r * chunk) % Math.max(1, queries - chunk);
    for (let k = 0; k < loops.length; k++) {
      const t = cpuUs();
      let calls = 0;
      let spent = 0;
      while (calls === 0 || spent < minUs) {
        const h = await (loops[k] as Loop)(from, from + chunk);
        if (r === 0 && calls === 0) hits[k] = h;
        calls++;
        spent = cpuUs() - t;
      }
      samples[k]?.push(spent / (calls * chunk));
    }
  }
  return { us: samples.map(median), hits };
}

/** Microseconds of CPU per item of `fn` (which does `items` items), repeated until `ms` of CPU time is spent. */
export async function perItem(fn: () => Promise<void> | void, items: number, ms: number): Promise<number> {
  let calls = 0;
  const start = cpuUs();
  let spent = 0;
  while (spent < ms * 1000 || calls === 0) {
    await fn();
    calls++;
    spent = cpuUs() - start;
  }
  return spent / (calls * items);
}
