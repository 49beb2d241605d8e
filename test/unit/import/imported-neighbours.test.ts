// The NSW import writes the neighbours column (docs/design.md sections 14 and 15), so an assembly over an imported pack
// reads each lot's neighbours from it and compares no outlines; over the world's lots too it compares only the pairs of
// an imported lot and a world lot. Each with the groups measuring every pair gives.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testWorld } from "../../../scripts/dev/test-world.ts";
import { FIXTURE_PACK } from "../../../scripts/import/fixture-pack.ts";
import { type AssembleOutcome, type AssembleQuery, assembleSites } from "../../../src/assemble/assemble-sites.ts";
import { openPacks } from "../../../src/packs/open-pack.ts";
import { MemorySource, NEIGHBOURS_COLUMN, PagedPack } from "../../../src/packs/paged/index.ts";

const bytes = new Uint8Array(Buffer.from(readFileSync(FIXTURE_PACK, "utf8").trim(), "base64"));
const imported = new PagedPack(new MemorySource("test/imported-neighbours.pack", bytes));
const { meta } = (await imported.snapshot()).root;
const [w, s, e, n] = meta.bbox;

const ask = (target: AssembleQuery["target"]): AssembleQuery => ({
  area: { bbox: [w ?? 0, s ?? 0, e ?? 0, n ?? 0] },
  target,
  limit: 100,
});
const answer = (a: AssembleOutcome) => ({ count: a.count, groups: a.groups, next_cursor: a.next_cursor });

describe("an imported pack's neighbours", () => {
  it("the committed import carries the neighbours column", () => {
    expect(meta.id).toBe("nsw-hunters-hill");
    expect(meta.columns.map((c) => c.name)).toContain(NEIGHBOURS_COLUMN.name);
  });

  it("an assembly over it compares no outlines and finds the groups that measuring them finds", async () => {
    for (const target of [
      { min_area_m2: 1500, max_lots: 3 },
      { min_area_m2: 3000, max_lots: 5 },
    ]) {
      const stored = await assembleSites(openPacks([imported]), ask(target));
      const measured = await assembleSites(openPacks([imported]), ask(target), { adjacency: "query" });
      expect(stored.count, JSON.stringify(target)).toBeGreaterThan(2);
      expect(stored.work.pairsCompared).toBe(0);
      expect(measured.work.pairsCompared).toBeGreaterThan(0);
      expect(answer(stored)).toEqual(answer(measured));
    }
  });

  it("over the world's lots, it compares fewer outlines than measuring all, with the same groups", async () => {
    const world = await testWorld(() => {});
    const worldPack = new PagedPack(
      new MemorySource(`test/world-${world.hash}.pack`, new Uint8Array(readFileSync(world.path))),
    );
    const packs = openPacks([imported, worldPack]);
    const q = ask({ min_area_m2: 1500, max_lots: 3 });
    const mixed = await assembleSites(packs, q);
    const measured = await assembleSites(packs, q, { adjacency: "query" });
    expect(mixed.count).toBeGreaterThan(2);
    expect(mixed.work.pairsCompared).toBeGreaterThan(0);
    expect(mixed.work.pairsCompared).toBeLessThan(measured.work.pairsCompared);
    expect(answer(mixed)).toEqual(answer(measured));
  }, 600_000);
});
