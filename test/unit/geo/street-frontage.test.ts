// A lot's frontage measured on its streets: the boundary along a road reserve, per street, a corner lot's shorter one.
import { describe, expect, it } from "vitest";
import { boundaryOnStreets, type StreetLine, streetFrontageM } from "../../../src/geo/street-frontage.ts";

// A street along y = -5 (reserve to y = 0) and a cross street along x = -5 (reserve to x = 0), both 10 m reserves.
const MAIN: StreetLine = { key: "Main Street", a: [-100, -5], b: [100, -5], halfWidthM: 5 };
const SIDE: StreetLine = { key: "Side Street", a: [-5, -100], b: [-5, 100], halfWidthM: 5 };
const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

describe("a lot's boundary on its streets", () => {
  it("counts the edges along a reserve, not those running away from it", () => {
    expect(boundaryOnStreets(rect(10, 0, 25, 40), [MAIN, SIDE])).toEqual(new Map([["Main Street", 15]]));
  });

  it("gives a corner lot its address street's boundary, or without one its shorter street boundary", () => {
    const corner = rect(0, 0, 15, 40);
    expect(boundaryOnStreets(corner, [MAIN, SIDE])).toEqual(
      new Map([
        ["Main Street", 15],
        ["Side Street", 40],
      ]),
    );
    expect(streetFrontageM(corner, [MAIN, SIDE], "Side Street")).toBe(40);
    expect(streetFrontageM(corner, [MAIN, SIDE])).toBe(15);
  });

  it("counts only what lies beside the street's built stretch, and nothing for a lot that meets no street", () => {
    const short: StreetLine = { ...MAIN, a: [-100, -5], b: [18, -5] };
    expect(streetFrontageM(rect(10, 0, 25, 40), [short])).toBe(8);
    expect(streetFrontageM(rect(10, 30, 25, 70), [MAIN, SIDE])).toBeNull();
  });
});
