// The pre-clipping relation must never claim "inside" or "disjoint" when exact clipping would differ.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import polygonClipping from "polygon-clipping";
import { relate } from "../../../src/geo/relate.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import { areaM2 } from "../../../src/geo/geodesic-area.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";

const square = (x: number, y: number, s: number) => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
  [x, y],
];
const poly = (...rings: number[][][]): AreaGeometry => ({ type: "Polygon", coordinates: rings });
const rel = (a: AreaGeometry, b: AreaGeometry) => relate(columnsFromGeometry(a), 0, columnsFromGeometry(b), 0);

describe("relate", () => {
  const zone = poly(square(0, 0, 10));
  it("a parcel wholly inside", () => expect(rel(poly(square(2, 2, 1)), zone)).toBe("inside"));
  it("a parcel wholly apart", () => expect(rel(poly(square(20, 20, 1)), zone)).toBe("disjoint"));
  it("a parcel crossing the edge", () => expect(rel(poly(square(9.5, 2, 1)), zone)).toBe("complex"));
  it("a parcel sharing an edge (touching is never decided cheaply)", () =>
    expect(rel(poly(square(0, 2, 1)), zone)).toBe("complex"));
  it("a parcel containing the zone", () => expect(rel(poly(square(-1, -1, 12)), zone)).toBe("complex"));
  it("a parcel in the zone's hole is apart", () =>
    expect(rel(poly(square(4, 4, 1)), poly(square(0, 0, 10), square(3, 3, 4)))).toBe("disjoint"));
  it("a parcel around the zone's hole is partial", () =>
    expect(rel(poly(square(2, 2, 6)), poly(square(0, 0, 10), square(4, 4, 1)))).toBe("complex"));

  it("agrees with exact clipping on random squares", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -4, max: 14 }),
        fc.integer({ min: -4, max: 14 }),
        fc.integer({ min: 1, max: 6 }),
        (x, y, s) => {
          const parcel = poly(square(x / 2, y / 2, s / 2));
          const r = rel(parcel, zone);
          const clipped = polygonClipping.intersection(parcel.coordinates as never, zone.coordinates as never);
          const overlap = clipped.length === 0 ? 0 : areaM2({ type: "MultiPolygon", coordinates: clipped });
          if (r === "disjoint") expect(overlap).toBe(0);
          if (r === "inside") expect(overlap).toBeCloseTo(areaM2(parcel), 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
