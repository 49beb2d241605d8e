import { describe, expect, it } from "vitest";
import { answerFrom } from "../../../src/chat/offline/answers.ts";
import {
  DEFAULT_GROUPS,
  findAssemblies,
  type FindAssembliesOutput,
  MODEL_GROUPS,
} from "../../../src/chat/tools/find-assemblies.ts";
import { openPacks } from "../../../src/packs/open-pack.ts";
import { packs } from "./demo-packs.ts";

const search = openPacks(packs);

describe("find_assemblies", () => {
  it("lists groups of adjoining lots meeting the total by the route's engine, each lot in one group, outlined on the map", async () => {
    const input = { suburb: "Epping", zones: ["R2"], target_area_m2: 1800, max_lots: 3 };
    const run = await findAssemblies(search, input, null);
    const out = run.output as FindAssembliesOutput;
    expect(out.matched).toBeGreaterThan(MODEL_GROUPS);
    expect(out.groups).toHaveLength(MODEL_GROUPS);
    expect(out.target).toEqual({ area_m2: 1800, max_lots: 3, frontage_m: null });
    const seen = new Set<string>();
    for (const g of out.groups) {
      expect(g.area_m2).toBeGreaterThanOrEqual(1800);
      expect(g.lots.length).toBeGreaterThanOrEqual(2);
      expect(g.lots.length).toBeLessThanOrEqual(3);
      expect(g.zone).toBe("R2");
      for (const id of g.lots) {
        expect(seen.has(String(id)), String(id)).toBe(false);
        seen.add(String(id));
      }
    }
    expect(run.map.parcels?.features).toHaveLength(Math.min(out.matched, DEFAULT_GROUPS));
    const text = answerFrom([{ name: "find_assemblies", args: input, output: out }]);
    expect(text).toContain(`I found ${out.matched} groups of up to 3 adjoining lots zoned R2 making at least 1,800 m²`);
    expect(text).toContain(`1. ${out.groups[0]?.lots.join(" + ")}`);
  });

  it("refuses an unknown suburb by name, as the search does", async () => {
    const run = await findAssemblies(search, { suburb: "Narnia", target_area_m2: 1000 }, null);
    expect(run.output).toEqual({ error: "Suburb not found: Narnia" });
  });
});
