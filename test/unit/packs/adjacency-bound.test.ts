import { describe, expect, it } from "vitest";
import { adjacentPairs, MAX_NEAR } from "../../../src/packs/paged/adjacency.ts";

// A 20 m square at column k of a row, in degrees near Sydney.
const D = 20 / 111_320;
const square = (k: number): [number, number][][] => [
  [
    [151 + k * D, -33.8],
    [151 + (k + 1) * D, -33.8],
    [151 + (k + 1) * D, -33.8 + D],
    [151 + k * D, -33.8 + D],
  ],
];

describe("adjacency's bound on stacked lots", () => {
  it("pairs a row of adjoining lots, but measures nothing among more than MAX_NEAR lots stacked on one spot", () => {
    const row: [number, number][] = [];
    adjacentPairs(
      5,
      (i) => square(i),
      (i, j) => row.push([i, j]),
    );
    expect(row).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    const stacked: [number, number][] = [];
    const compared = adjacentPairs(
      MAX_NEAR + 100,
      () => square(0),
      (i, j) => stacked.push([i, j]),
    );
    expect(stacked).toEqual([]);
    expect(compared).toBe(0);
  });
});
