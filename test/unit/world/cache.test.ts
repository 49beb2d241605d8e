// The world is cached by content: one hash of the generator's code, its inputs and its options names the file.
import { describe, expect, it } from "vitest";
import { cacheRoot, generatorSources, worldCachePath, worldHash } from "../../../scripts/world/cache.ts";
import { ROOT } from "./small-world.ts";

describe("the world cache", () => {
  it("lives under GEO_ASSESS_CACHE, else XDG_CACHE_HOME/geo-assess, else ~/.cache/geo-assess", () => {
    expect(cacheRoot({ GEO_ASSESS_CACHE: "/c" })).toBe("/c");
    expect(cacheRoot({ XDG_CACHE_HOME: "/x" })).toBe("/x/geo-assess");
    expect(cacheRoot({ HOME: "/h" })).toMatch(/\.cache\/geo-assess$/);
    expect(worldCachePath("ab".repeat(32), { GEO_ASSESS_CACHE: "/c" })).toBe(
      `/c/world/greater-sydney-${"ab".repeat(32)}.pack`,
    );
  });

  it("hashes the generator's own files and the kernels it computes facts with", () => {
    const { files, packages } = generatorSources(ROOT);
    for (const f of [
      "scripts/world/plan.ts",
      "scripts/world/worker.ts",
      "src/assess/facts.ts",
      "src/packs/paged/encode.ts",
    ]) {
      expect(files).toContain(f);
    }
    expect(packages.some((p) => p.startsWith("flatbush@"))).toBe(true);
  });

  it("gives the same hash for the same options and another for another seed, size or suburb list", () => {
    const a = worldHash({ seed: 1, lots: 1000 }, ROOT);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(worldHash({ seed: 1, lots: 1000 }, ROOT)).toBe(a);
    expect(worldHash({ seed: 2, lots: 1000 }, ROOT)).not.toBe(a);
    expect(worldHash({ seed: 1, lots: 2000 }, ROOT)).not.toBe(a);
    expect(worldHash({ seed: 1, lots: 1000, suburbs: ["Newtown"] }, ROOT)).not.toBe(a);
  });
});
