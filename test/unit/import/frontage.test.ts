// An imported cadastre's frontages: read from the road reserves between its lots, as an upload's are.
import { describe, expect, it } from "vitest";
import { EARTH_RADIUS_M } from "../../../src/geo/distance.ts";
import { withFrontages } from "../../../scripts/import/import-nsw.ts";
import type { ImportedFeature } from "../../../scripts/import/fetch-layer.ts";

const M = (EARTH_RADIUS_M * Math.PI) / 180;
const KX = M * Math.cos((-33.83 * Math.PI) / 180);
const at = (x: number, y: number) => [151.12 + x / KX, -33.83 + y / M];
const lot = (id: string, x0: number, y0: number, x1: number, y1: number): ImportedFeature => ({
  type: "Feature",
  properties: { lotidstring: id },
  geometry: { type: "Polygon", coordinates: [[at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)]] },
});

describe("an import's frontages", () => {
  it("give each lot facing another across a road reserve its boundary there, and leave the rest without", () => {
    // Two 15 m lots facing two across a 20 m road, and one alone 200 m away.
    const lots = [
      lot("1//DP1", 0, 0, 15, 40),
      lot("2//DP1", 15, 0, 30, 40),
      lot("3//DP1", 0, 60, 15, 100),
      lot("4//DP1", 15, 60, 30, 100),
      lot("5//DP1", 300, 0, 315, 40),
    ];
    const out = withFrontages(lots);
    expect(out.map((f) => f.properties.frontage_m ?? null)).toEqual([15, 15, 15, 15, null]);
    expect(out[0]?.properties.lotidstring).toBe("1//DP1");
  });
});

describe("an import's frontages on hostile or implausible cadastres", () => {
  it("are not read among more lots than a street block holds (lots stacked on one spot): estimated instead", () => {
    const front = lot("1//DP2", 0, 0, 15, 40);
    const across = lot("2//DP2", 0, 60, 15, 100);
    expect(withFrontages([front, across]).map((f) => f.properties.frontage_m ?? null)).toEqual([15, 15]);
    // The same two with 401 one-metre lots stacked behind the first: no street block is that dense.
    const stacked = Array.from({ length: 401 }, (_, k) => lot(`s${k}//DP3`, 5, -10, 6, -9));
    const out = withFrontages([front, across, ...stacked]);
    expect(out[0]?.properties.frontage_m).toBeUndefined();
  });

  it("leave 2,000 identical lots on one spot estimated", () => {
    const same = Array.from({ length: 2_000 }, (_, k) => lot(`${k}//DP4`, 0, 0, 15, 40));
    expect(withFrontages(same).every((f) => f.properties.frontage_m === undefined)).toBe(true);
  });
});
