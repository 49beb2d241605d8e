// The small world the browser tests, the smoke test and the examples' generator run on (issue 49): every suburb's
// middle, 50,000 lots, built once and then found in the cache by content (scripts/world/cache.ts).
import { type EnsuredWorld, ensureWorld } from "../world/cache.ts";

export const TEST_WORLD_LOTS = 50_000;

/** The small world (or one of `lots`), built when the cache lacks it; says how long that took. */
export async function testWorld(
  log: (line: string) => void = console.log,
  lots = TEST_WORLD_LOTS,
): Promise<EnsuredWorld> {
  const t = performance.now();
  const world = await ensureWorld({ lots, quiet: true });
  const secs = ((performance.now() - t) / 1000).toFixed(1);
  log(`test world (${lots.toLocaleString("en-AU")} lots): ${world.built ? "built" : "cached"} in ${secs} s`);
  return world;
}
