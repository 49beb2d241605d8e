// A large layer written as a v2 pack of layers yields as it goes (issue 48: uploads are encoded straight to v2 in their
// request): before its first page as well as between pages, so no step reads more than a few thousand geometries.
import { describe, expect, it } from "vitest";
import { encodeLayers, type LayerSource } from "../../../../src/packs/paged/encode-layers.ts";
import { wholePackOfBytes } from "../../../../src/packs/paged/index.ts";

const COUNT = 30_000;

describe("encodeLayers with a pace", () => {
  it("reads at most 5,000 geometries between two paces, and every feature is written", async () => {
    let since = 0;
    let most = 0;
    let paces = 0;
    const layer: LayerSource = {
      name: "stops",
      kind: "point",
      fields: ["name"],
      categoryField: null,
      synthetic: false,
      syntheticField: null,
      count: COUNT,
      geometry: (i) => {
        since++;
        most = Math.max(most, since);
        return { type: "Point", coordinates: [150 + (i % 200) * 0.001, -34 + Math.floor(i / 200) * 0.001] };
      },
      row: (i) => [`stop ${i}`],
    };
    const pace = async () => {
      paces++;
      since = 0;
    };
    const columns = [{ name: "name", type: "text" as const }];
    const bytes = await encodeLayers([layer], { id: "paced", version: "1", columns, pageBytes: 32 * 1024 }, pace);
    expect(most).toBeLessThanOrEqual(5_000);
    expect(paces).toBeGreaterThan(COUNT / 5_000);
    const stops = wholePackOfBytes(bytes, "paced").layers.get("stops");
    expect(stops?.count).toBe(COUNT);
    expect(new Set(Array.from({ length: COUNT }, (_, i) => stops?.props(i).name)).size).toBe(COUNT);
  });
});
