import { describe, expect, it } from "vitest";
import { RESERVE_MAX_M, reserveFrontageM, reserveStretchesM } from "../../../src/geo/reserve-frontage.ts";

type XY = [number, number];
// A rectangle's ring, counter-clockwise from its south-west corner.
const rect = (x0: number, y0: number, x1: number, y1: number): XY[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];
const cw = (ring: XY[]): XY[] => [...ring].reverse();

// A street block, in metres: a row of five 15 m x 40 m lots (y 0..40) facing a 20 m road (y 40..60), a row across it
// (y 60..100), a row behind sharing their rear boundaries (y -40..0), and a 20 m side street west of x = 0.
const row = [0, 1, 2, 3, 4].map((k) => rect(15 * k, 0, 15 * k + 15, 40));
const across = [0, 1, 2, 3, 4].map((k) => rect(15 * k, 60, 15 * k + 15, 100));
const behind = [0, 1, 2, 3, 4].map((k) => rect(15 * k, -40, 15 * k + 15, 0));
const westAcross = [rect(-60, 0, -20, 40), rect(-60, -40, -20, 0)];
const block = [...row, ...across, ...behind, ...westAcross];
const othersOf = (lot: XY[]) => block.filter((l) => l !== lot);

describe("frontage on a road reserve (a cadastre without streets)", () => {
  it("a mid-block lot's frontage is its 15 m on the street, not its shared sides or rear", () => {
    expect(reserveFrontageM(row[2] as XY[], othersOf(row[2] as XY[]))).toBeCloseTo(15, 6);
  });

  it("reads a clockwise ring as a counter-clockwise one", () => {
    expect(reserveFrontageM(cw(row[2] as XY[]), othersOf(row[2] as XY[]))).toBeCloseTo(15, 6);
  });

  it("a corner lot faces two streets and its frontage is the shorter, the front", () => {
    const corner = row[0] as XY[];
    const stretches = reserveStretchesM(corner, othersOf(corner)).sort((a, b) => a - b);
    expect(stretches.map((m) => Math.round(m))).toEqual([15, 40]);
    expect(reserveFrontageM(corner, othersOf(corner))).toBeCloseTo(15, 6);
  });

  it("a corner's splay between its two streets is not the frontage", () => {
    // The corner lot with a 4 m splay cut across its north-west corner.
    const splayed: XY[] = [
      [0, 0],
      [15, 0],
      [15, 40],
      [3, 40],
      [0, 37],
    ];
    const others = othersOf(row[0] as XY[]);
    expect(
      reserveStretchesM(splayed, others)
        .map((m) => Math.round(m))
        .sort((a, b) => a - b),
    ).toEqual([12, 37]);
    expect(reserveFrontageM(splayed, others)).toBeCloseTo(12, 6);
  });

  it("a battle-axe lot's frontage is its handle's width", () => {
    // Lot 4 cut into a front lot and a battle-axe lot whose 4 m handle runs beside it to the street.
    const front = rect(64, 20, 75, 40);
    const axe: XY[] = [
      [60, 0],
      [75, 0],
      [75, 20],
      [64, 20],
      [64, 40],
      [60, 40],
    ];
    const lots = [...block.filter((l) => l !== row[4]), front];
    expect(reserveFrontageM(axe, lots)).toBeCloseTo(4, 6);
    expect(reserveFrontageM(front, [...lots.filter((l) => l !== front), axe])).toBeCloseTo(11, 6);
  });

  it("a lot across a 4 m lane from the next has no frontage on it", () => {
    const lot = rect(0, 0, 15, 40);
    const beyondLane = rect(0, 44, 15, 84);
    expect(reserveFrontageM(lot, [beyondLane])).toBeNull();
  });

  it("a lot with nothing known beyond its boundary (the upload's edge) has no frontage: it stays estimated", () => {
    expect(reserveFrontageM(row[2] as XY[], [row[1] as XY[], row[3] as XY[]])).toBeNull();
    expect(reserveFrontageM(row[2] as XY[], [])).toBeNull();
  });

  it("land farther across than a road reserve is wide (a park, a creek) is not a street", () => {
    const lot = rect(0, 0, 15, 40);
    const farAcross = rect(0, 40 + RESERVE_MAX_M + 5, 15, 120 + RESERVE_MAX_M);
    expect(reserveFrontageM(lot, [farAcross])).toBeNull();
  });

  it("a frontage only partly faced by lots across counts the part faced", () => {
    const lot = rect(0, 0, 30, 40);
    const halfAcross = rect(0, 60, 15, 100);
    expect(reserveFrontageM(lot, [halfAcross])).toBeCloseTo(15, 6);
  });
});

describe("rings as GeoJSON gives them", () => {
  it("a closed ring (its first vertex repeated last) and a stretch across the ring's start measure as an open one", () => {
    // The mid-block lot's ring starting halfway along its street side, closed.
    const ring: XY[] = [
      [37.5, 40],
      [30, 40],
      [30, 0],
      [45, 0],
      [45, 40],
      [37.5, 40],
    ];
    expect(reserveStretchesM(ring, othersOf(row[2] as XY[]))).toEqual([expect.closeTo(15, 6)]);
  });
});
