// Esri rings regrouped into GeoJSON polygons by orientation and containment, wound as RFC 7946 asks.
import { describe, expect, it } from "vitest";
import { ringsToGeometry, signedArea2 } from "../../../scripts/import/esri-rings.ts";

type Pt = [number, number];
// Clockwise squares (Esri's outer rings) and their reverse (holes).
const cw = (x0: number, y0: number, s: number): Pt[] => [
  [x0, y0],
  [x0, y0 + s],
  [x0 + s, y0 + s],
  [x0 + s, y0],
  [x0, y0],
];
const ccw = (x0: number, y0: number, s: number): Pt[] => cw(x0, y0, s).reverse();

describe("Esri rings to GeoJSON", () => {
  it("makes an outer ring and its hole one Polygon, outer anticlockwise and hole clockwise", () => {
    const g = ringsToGeometry([cw(0, 0, 10), ccw(2, 2, 2)]);
    expect(g?.type).toBe("Polygon");
    const rings = g?.coordinates as Pt[][];
    expect(rings).toHaveLength(2);
    expect(signedArea2(rings[0] as Pt[])).toBeGreaterThan(0);
    expect(signedArea2(rings[1] as Pt[])).toBeLessThan(0);
  });

  it("makes two outer rings a MultiPolygon, each hole with the smallest outer ring holding it", () => {
    // A square with a hole, inside that hole an island with a hole of its own, and a second square apart.
    const g = ringsToGeometry([ccw(4, 4, 1), cw(0, 0, 10), ccw(1, 1, 8), cw(20, 0, 5), cw(3, 3, 4)]);
    expect(g?.type).toBe("MultiPolygon");
    const polys = g?.coordinates as Pt[][][];
    const sizes = polys.map((p) => [Math.abs(signedArea2(p[0] as Pt[])) / 2, p.length]);
    expect(sizes).toEqual([
      [100, 2],
      [25, 1],
      [16, 2],
    ]);
    // The island's hole is its own, not the big square's.
    expect(polys[2]?.[1]?.[0]).toEqual([4, 4]);
  });

  it("reads an anticlockwise ring that no outer ring holds as an outer ring, and drops rings without area", () => {
    const g = ringsToGeometry([
      ccw(0, 0, 3),
      [
        [5, 5],
        [6, 6],
        [5, 5],
      ],
    ]);
    expect(g?.type).toBe("Polygon");
    const outer = (g?.coordinates ?? [])[0] as Pt[];
    expect(Math.abs(signedArea2(outer))).toBe(18);
    expect(ringsToGeometry([])).toBeNull();
  });
});
