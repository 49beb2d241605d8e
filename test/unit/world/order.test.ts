// Lots reach the pack writer in Hilbert order of their box centres over the whole world, so a page is a compact area.
import { describe, expect, it } from "vitest";
import { hilbertOf } from "../../../src/packs/paged/hilbert.ts";
import { worldBox } from "../../../scripts/world/context.ts";
import { context, packLots, smallPack } from "./small-world.ts";

const SUBURBS = ["Hornsby", "Waitara", "Asquith"];

describe("the synthetic world's lot order", () => {
  it("is ascending Hilbert order of lot box centres over the world's box, page after page", async () => {
    const ctx = context();
    const box = worldBox(ctx.suburbs.filter((s) => SUBURBS.includes(s.name)));
    const hits = (await packLots(await smallPack(SUBURBS, 3000))).sort((a, b) => a.page - b.page || a.index - b.index);
    expect(new Set(hits.map((h) => h.page)).size).toBeGreaterThan(1);
    let last = -1;
    for (const h of hits) {
      const ring = h.geometry.coordinates[0]?.[0] ?? [];
      const xs = ring.map((p) => p[0] as number);
      const ys = ring.map((p) => p[1] as number);
      const key = hilbertOf((Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2, box);
      expect(key).toBeGreaterThanOrEqual(last);
      last = key;
    }
  });
});
