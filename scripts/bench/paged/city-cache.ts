// The generated city (world.ts) as a v2 pack file, built once per size in a child and cached by content, as the
// world is (scripts/world/cache.ts): a bench run at 5M lots reuses it rather than rebuilding it.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, contentHash } from "../../world/cache.ts";
import type { BuildJob, BuildReport } from "./build-child.ts";
import { runChild } from "./child.ts";

// The builder's entry point: the hash covers every file it imports (the generator, PackWriter, the stored tiles).
const BUILDER = "scripts/bench/paged/build-child.ts";

/** Where the city of `lots` lots built by the current code is cached. */
export function cityCachePath(lots: number, root = "."): string {
  return join(cacheRoot(), "bench", `city-${lots}-${contentHash([BUILDER], [], { lots }, root)}.pack`);
}

/** The cached city of `lots` lots, built first when missing (`builtS`: the build's seconds, 0 when cached). */
export async function ensureCity(lots: number): Promise<{ path: string; builtS: number }> {
  const path = cityCachePath(lots);
  if (existsSync(path)) return { path, builtS: 0 };
  mkdirSync(dirname(path), { recursive: true });
  // Built beside its name and renamed when whole, so an interrupted build is never taken for a cached one.
  const part = `${path}.part`;
  try {
    const job: BuildJob = { lots, out: part };
    const built = await runChild<BuildJob, BuildReport>(
      fileURLToPath(new URL("./build-child.ts", import.meta.url)),
      job,
    );
    renameSync(part, path);
    return { path, builtS: built.stats.seconds.total };
  } finally {
    rmSync(part, { force: true });
  }
}
