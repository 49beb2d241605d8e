// The area an import asks for: a council's suburbs' boxes from the repository's suburbs data, or a box given.
import { describe, expect, it } from "vitest";
import { bboxArea, keepInside, lgaArea } from "../../../scripts/import/area.ts";
import type { ImportedFeature } from "../../../scripts/import/fetch-layer.ts";

const square = (lon: number, lat: number): ImportedFeature => ({
  type: "Feature",
  properties: {},
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [lon, lat],
        [lon + 0.0005, lat],
        [lon + 0.0005, lat + 0.0005],
        [lon, lat + 0.0005],
        [lon, lat],
      ],
    ],
  },
});

describe("import area", () => {
  it("takes a council's extent as its suburbs' boxes, asking for the box around them", () => {
    const a = lgaArea("Hunters Hill Council");
    expect(a.label).toBe("Hunters Hill (5 suburbs)");
    expect(a.slug).toBe("hunters-hill");
    expect(a.boxes).toHaveLength(5);
    expect(a.box[0]).toBeCloseTo(151.13017, 4);
    expect(a.box[3]).toBeCloseTo(-33.81477, 4);
  });

  it("keeps what meets one of the suburbs' boxes and drops what lies only in the box around them", () => {
    const a = lgaArea("Hunters Hill");
    const inHuntersHill = square(151.1378, -33.827);
    // Inside the union's box, south of Hunters Hill and west of Woolwich: in no suburb's box.
    const between = square(151.135, -33.847);
    expect(between.geometry.coordinates[0]?.[0]?.[0]).toBeGreaterThan(a.box[0]);
    expect(keepInside(a, [inHuntersHill, between])).toEqual([inHuntersHill]);
  });

  it("refuses an unknown council and a malformed box with sentences", () => {
    expect(() => lgaArea("Hunterz Hill")).toThrow(
      /^No suburb in .* names the LGA "Hunterz Hill"; did you mean "Hunters Hill"\?/,
    );
    expect(() => bboxArea("151.2,-33.9,151.1,-33.8")).toThrow(/--bbox wants W,S,E,N in degrees with W < E and S < N/);
    expect(bboxArea("151.1,-33.9,151.2,-33.8").boxes).toEqual([[151.1, -33.9, 151.2, -33.8]]);
  });
});
