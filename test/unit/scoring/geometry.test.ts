import { describe, expect, it } from "vitest";
import { measureLot } from "../../../src/scoring/geometry.ts";
import { NEWTOWN, rectangle, ringAt } from "./sites.ts";

const { lat, lon } = NEWTOWN;

function rotated(widthM: number, depthM: number, degrees: number): [number, number][] {
  const a = (degrees * Math.PI) / 180;
  const w = widthM / 2,
    d = depthM / 2;
  return (
    [
      [-w, -d],
      [w, -d],
      [w, d],
      [-w, d],
    ] as [number, number][]
  ).map(([x, y]) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)]);
}

describe("measureLot", () => {
  it("measures a 20 m x 30.6 m rectangle near Sydney", () => {
    const s = measureLot(rectangle(lat, lon, 20, 30.6));
    expect(s.rectWidthM).toBeCloseTo(20, 6);
    expect(s.rectLengthM).toBeCloseTo(30.6, 6);
    expect(s.planarAreaM2).toBeCloseTo(612, 4);
    expect(s.rectAreaM2).toBeCloseTo(612, 4);
  });

  it("finds the same rectangle when the lot is rotated 30 degrees", () => {
    const s = measureLot({ type: "Polygon", coordinates: [ringAt(lat, lon, rotated(20, 30.6, 30))] });
    expect(s.rectWidthM).toBeCloseTo(20, 3);
    expect(s.rectLengthM).toBeCloseTo(30.6, 3);
    expect(s.planarAreaM2 / s.rectAreaM2).toBeCloseTo(1, 6);
  });

  it("gives a right triangle half the area of its bounding rectangle", () => {
    // Off-centre on purpose: the projection origin moves to the bbox centre, so allow millimetre-level drift.
    const s = measureLot({
      type: "Polygon",
      coordinates: [
        ringAt(lat, lon, [
          [0, 0],
          [30, 0],
          [0, 20],
        ]),
      ],
    });
    expect(s.planarAreaM2).toBeCloseTo(300, 2);
    expect(s.rectAreaM2).toBeCloseTo(600, 2);
    expect(s.rectWidthM).toBeCloseTo(20, 2);
  });

  it("subtracts holes from the area", () => {
    const outer = ringAt(lat, lon, [
      [-10, -10],
      [10, -10],
      [10, 10],
      [-10, 10],
    ]);
    const hole = ringAt(lat, lon, [
      [-5, -5],
      [-5, 5],
      [5, 5],
      [5, -5],
    ]);
    const s = measureLot({ type: "Polygon", coordinates: [outer, hole] });
    expect(s.planarAreaM2).toBeCloseTo(300, 3);
    expect(s.rectAreaM2).toBeCloseTo(400, 3);
  });

  it("measures a MultiPolygon as one lot over all its parts", () => {
    const a = ringAt(lat, lon, [
      [-15, -5],
      [-5, -5],
      [-5, 5],
      [-15, 5],
    ]);
    const b = ringAt(lat, lon, [
      [5, -5],
      [15, -5],
      [15, 5],
      [5, 5],
    ]);
    const s = measureLot({ type: "MultiPolygon", coordinates: [[a], [b]] });
    expect(s.planarAreaM2).toBeCloseTo(200, 3);
    expect(s.rectWidthM).toBeCloseTo(10, 3);
    expect(s.rectLengthM).toBeCloseTo(30, 3);
  });

  it("returns zeros for empty or degenerate geometry", () => {
    expect(measureLot({ type: "Polygon", coordinates: [] })).toEqual({
      planarAreaM2: 0,
      rectWidthM: 0,
      rectLengthM: 0,
      rectAreaM2: 0,
    });
    const line = measureLot({
      type: "Polygon",
      coordinates: [
        ringAt(lat, lon, [
          [0, 0],
          [10, 0],
          [20, 0],
        ]),
      ],
    });
    expect(line.rectAreaM2).toBe(0);
    expect(line.planarAreaM2).toBe(0);
  });

  it("reads a mislabelled geometry by its nesting depth", () => {
    const poly = rectangle(lat, lon, 10, 10);
    const asMulti = measureLot({ type: "MultiPolygon", coordinates: poly.coordinates });
    expect(asMulti.planarAreaM2).toBeCloseTo(100, 4);
    expect(asMulti).toEqual(measureLot(poly));
  });
});

describe("the hull and its minimum rectangle (through measureLot)", () => {
  it("drops duplicate and collinear vertices", () => {
    const s = measureLot({
      type: "Polygon",
      coordinates: [
        ringAt(lat, lon, [
          [0, 0],
          [10, 0],
          [20, 0],
          [20, 0],
          [20, 20],
          [0, 20],
          [0, 10],
          [0, 0],
        ]),
      ],
    });
    expect(s.rectWidthM).toBeCloseTo(20, 3);
    expect(s.rectAreaM2).toBeCloseTo(400, 2);
  });

  it("fits a diamond with its own sides, not the axes", () => {
    const s = measureLot({
      type: "Polygon",
      coordinates: [
        ringAt(lat, lon, [
          [0, -5],
          [5, 0],
          [0, 5],
          [-5, 0],
        ]),
      ],
    });
    // Its bounding box would be 100 m2; the rectangle on its own sides is the diamond itself.
    expect(s.rectAreaM2).toBeCloseTo(50, 3);
    expect(s.rectWidthM).toBeCloseTo(Math.SQRT2 * 5, 3);
  });
});
