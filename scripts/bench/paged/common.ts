// Shared by the v2 suites: the pack size, a temp dir per run, CPU time, and how a claim is printed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Lots in the big generated pack: 5 million, or BENCH_PAGED_LOTS for a quick look. */
export function benchLots(fallback = 5_000_000): number {
  const raw = process.env.BENCH_PAGED_LOTS;
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!(Number.isInteger(n) && n >= 1000))
    throw new Error(`BENCH_PAGED_LOTS wants a whole number of lots, not "${raw}"`);
  return n;
}

/** Runs `fn` with a fresh temp dir, deleted afterwards whatever happens. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Main-thread CPU time in microseconds: other work on a shared machine does not count. */
export function cpuUs(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

export const claim = (holds: boolean, text: string): string => `claim ${text}: ${holds ? "holds" : "DOES NOT HOLD"}`;

export const lotsLabel = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(n % 1e6 === 0 ? 0 : 1)}M` : `${Math.round(n / 1e3)}k`;

/** Percentile of samples (p in [0, 1]), nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? Number.NaN;
}
