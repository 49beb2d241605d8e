// DEV_WORLD_HASH: the scratch stack pins the world its tests read, so an edit to the generator while the stack starts
// cannot make it build and serve another.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planWorld, pinnedWorld } from "../../../scripts/dev/world-background.ts";
import { streetsCachePath, worldCachePath } from "../../../scripts/world/cache.ts";
import { worldKey } from "../../../scripts/world/local-r2.ts";

const cache = mkdtempSync(join(tmpdir(), "pinned-world-"));
const env = { GEO_ASSESS_CACHE: cache };
const HASH = "ab".repeat(32);

describe("a pinned world (DEV_WORLD_HASH)", () => {
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it("is refused unless it is a sha256 in hex", () => {
    expect(() => pinnedWorld({ ...env, DEV_WORLD_HASH: "abc" })).toThrow(/sha256 in hex/);
  });

  it("is refused while the cache lacks either of its packs", () => {
    mkdirSync(join(cache, "world"), { recursive: true });
    writeFileSync(worldCachePath(HASH, env), "");
    expect(() => pinnedWorld({ ...env, DEV_WORLD_HASH: HASH })).toThrow(/no world in the cache/);
  });

  it("is what the dev stack plans to serve once cached, whatever the generator's source hashes to now", () => {
    writeFileSync(streetsCachePath(HASH, env), "");
    expect(pinnedWorld({ ...env, DEV_WORLD_HASH: HASH })).toBe(HASH);
    const plan = planWorld(join(cache, "no-store"), { ...env, DEV_WORLD_HASH: HASH, DEV_WORLD_LOTS: "50000" });
    expect(plan).toEqual({ state: "pending", key: worldKey(HASH) });
  });

  it("is absent when unset, leaving the world to the generator's hash", () => {
    expect(pinnedWorld(env)).toBeUndefined();
  });
});
