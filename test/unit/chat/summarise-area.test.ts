import { describe, expect, it } from "vitest";
import { summariseArea, type SummariseAreaOutput } from "../../../src/chat/tools/summarise-area.ts";
import { parcelsIn, resolveArea } from "../../../src/chat/tools/tool-areas.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import { overlapsLayer, packs } from "./demo-packs.ts";

describe("summarise_area", () => {
  it("counts the Epping parcels touched by flood, bushfire and heritage as a general polygon clipper does", () => {
    const run = summariseArea(packs, { suburb: "Epping" }, null);
    const out = run.output as SummariseAreaOutput;
    const area = resolveArea(packs, { suburb: "Epping" }, null);
    if (typeof area === "string") throw new Error(area);
    const geoms = parcelsIn(packs, area).parcels.map((p) => featureToGeometry(p.layer, p.index));
    expect(out.parcels).toBe(geoms.length);
    for (const layer of ["flood", "bushfire", "heritage"] as const) {
      const expected = geoms.filter((g) => overlapsLayer(g, layer)).length;
      expect(out[layer].parcels, layer).toBe(expected);
    }
    // Epping has parcels under every overlay in the demo pack: the comparison is not of zeros.
    expect(Math.min(out.flood.parcels, out.bushfire.parcels, out.heritage.parcels)).toBeGreaterThan(0);
  });
});
