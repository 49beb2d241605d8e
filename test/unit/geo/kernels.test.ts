import { describe, expect, it } from "vitest";
import { areaM2 } from "../../../src/geo/geodesic-area.ts";
import { bboxContains, bboxIntersects, featureBBox } from "../../../src/geo/bbox.ts";
import { centroid } from "../../../src/geo/centroid.ts";
import { columnsFromGeometry, featureToGeometry } from "../../../src/geo/columns.ts";
import { degreesForMeters, distanceToFeatureM, haversineM } from "../../../src/geo/distance.ts";
import { pointInPolygon } from "../../../src/geo/pip.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";

const RAD = Math.PI / 180;
// Standard series for the WGS84 length of one degree, independent of the code under test.
const metresPerDegLat = (phi: number) => 111132.92 - 559.82 * Math.cos(2 * phi * RAD) + 1.175 * Math.cos(4 * phi * RAD);
const metresPerDegLon = (phi: number) =>
  111412.84 * Math.cos(phi * RAD) - 93.5 * Math.cos(3 * phi * RAD) + 0.118 * Math.cos(5 * phi * RAD);

function rect(lon: number, lat: number, widthM: number, heightM: number): AreaGeometry {
  const dx = widthM / metresPerDegLon(lat);
  const dy = heightM / metresPerDegLat(lat);
  return {
    type: "Polygon",
    coordinates: [
      [
        [lon, lat],
        [lon + dx, lat],
        [lon + dx, lat + dy],
        [lon, lat + dy],
        [lon, lat],
      ],
    ],
  };
}

const donut: AreaGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
    [
      [4, 4],
      [4, 6],
      [6, 6],
      [6, 4],
      [4, 4],
    ],
  ],
};

describe("point in polygon", () => {
  it("respects holes", () => {
    expect(pointInPolygon(donut, 1, 1)).toBe(true);
    expect(pointInPolygon(donut, 5, 5)).toBe(false);
    expect(pointInPolygon(donut, 11, 5)).toBe(false);
    expect(pointInPolygon(donut, 3.9, 5)).toBe(true);
  });

  it("handles multipolygons and concave rings", () => {
    const mp: AreaGeometry = {
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
        [
          [
            [2, 0],
            [3, 0],
            [3, 1],
            [2, 1],
          ],
        ],
      ],
    };
    expect(pointInPolygon(mp, 2.5, 0.5)).toBe(true);
    expect(pointInPolygon(mp, 1.5, 0.5)).toBe(false);
    const u: AreaGeometry = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [3, 0],
          [3, 3],
          [2, 3],
          [2, 1],
          [1, 1],
          [1, 3],
          [0, 3],
          [0, 0],
        ],
      ],
    };
    expect(pointInPolygon(u, 1.5, 2)).toBe(false);
    expect(pointInPolygon(u, 0.5, 2)).toBe(true);
  });
});

describe("area", () => {
  it("measures a 20 m x 30 m lot at Sydney's latitude within 0.5%", () => {
    const a = areaM2(rect(151.2, -33.87, 20, 30));
    expect(Math.abs(a - 600) / 600).toBeLessThan(0.005);
    expect(Math.abs(a - 600) / 600).toBeLessThan(0.001);
  });

  it("measures a 1 km square within 0.5% and subtracts holes", () => {
    const a = areaM2(rect(151.0, -33.8, 1000, 1000));
    expect(Math.abs(a - 1e6) / 1e6).toBeLessThan(0.005);
    const outer = rect(151.0, -33.8, 100, 100).coordinates as number[][][];
    const hole = (rect(151.0001, -33.7999, 10, 10).coordinates as number[][][])[0] as number[][];
    const withHole = areaM2({ type: "Polygon", coordinates: [outer[0] as number[][], [...hole].reverse()] });
    expect(withHole).toBeCloseTo(10000 - 100, -1);
  });

  it("does not depend on winding", () => {
    const g = rect(151.2, -33.87, 20, 30);
    const reversed: AreaGeometry = { type: "Polygon", coordinates: [[...(g.coordinates[0] as number[][])].reverse()] };
    expect(areaM2(reversed)).toBeCloseTo(areaM2(g), 6);
  });
});

describe("centroid, bbox, distance, GeoJSON", () => {
  it("puts the centroid of a square in its middle and of a donut at its centre", () => {
    const [x, y] = centroid({
      type: "Polygon",
      coordinates: [
        [
          [151, -34],
          [151.002, -34],
          [151.002, -33.998],
          [151, -33.998],
          [151, -34],
        ],
      ],
    });
    expect(x).toBeCloseTo(151.001, 9);
    expect(y).toBeCloseTo(-33.999, 9);
    const [dx, dy] = centroid(donut);
    expect(dx).toBeCloseTo(5, 6);
    expect(dy).toBeCloseTo(5, 6);
  });

  it("weights an L shape by area", () => {
    // Two unit squares side by side plus one on top of the left one: centroid (5/6, 5/6) in a small, nearly planar frame.
    const s = 0.0001;
    const l: AreaGeometry = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [2 * s, 0],
          [2 * s, s],
          [s, s],
          [s, 2 * s],
          [0, 2 * s],
          [0, 0],
        ],
      ],
    };
    const [x, y] = centroid(l);
    expect(x / s).toBeCloseTo(5 / 6, 4);
    expect(y / s).toBeCloseTo(5 / 6, 4);
  });

  it("computes bboxes and their tests", () => {
    const b = featureBBox(columnsFromGeometry(donut), 0);
    expect(b).toEqual([0, 0, 10, 10]);
    expect(bboxContains(b, 10, 10)).toBe(true);
    expect(bboxContains(b, 10.1, 10)).toBe(false);
    expect(bboxIntersects(b, [10, 10, 11, 11])).toBe(true);
    expect(bboxIntersects(b, [10.5, 0, 11, 11])).toBe(false);
  });

  it("measures haversine distances", () => {
    // One degree of latitude on the mean sphere: 2 * pi * 6371008.8 / 360.
    expect(haversineM(151, -34, 151, -33)).toBeCloseTo(111195.08, 1);
    expect(haversineM(151.1794, -33.8978, 151.1794, -33.8978)).toBe(0);
    // Newtown to Erskineville stations: about 0.7 km.
    const d = haversineM(151.1794, -33.8978, 151.1857, -33.9006);
    expect(d).toBeGreaterThan(650);
    expect(d).toBeLessThan(700);
    const { dLon, dLat } = degreesForMeters(1000, -33.9);
    expect(haversineM(151, -33.9, 151 + dLon, -33.9)).toBeCloseTo(1000, -1);
    expect(haversineM(151, -33.9, 151, -33.9 + dLat)).toBeCloseTo(1000, 3);
  });

  it("measures distance from a point to a polygon edge", () => {
    const g = rect(151.2, -33.87, 20, 30);
    const c = columnsFromGeometry(g);
    expect(distanceToFeatureM(c, 0, 151.20001, -33.86999)).toBe(0);
    const east = 151.2 + 30 / metresPerDegLon(-33.87);
    expect(distanceToFeatureM(c, 0, east, -33.87 + 10 / metresPerDegLat(-33.87))).toBeCloseTo(10, 0);
  });

  it("writes GeoJSON with closed rings and reads it back", () => {
    const g = featureToGeometry(columnsFromGeometry(donut), 0);
    expect(g).toEqual({ type: "Polygon", coordinates: [donut.coordinates[0], donut.coordinates[1]] });
    const mp: AreaGeometry = {
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
        [
          [
            [2, 0],
            [3, 0],
            [3, 1],
            [2, 0],
          ],
        ],
      ],
    };
    expect(featureToGeometry(columnsFromGeometry(mp), 0)).toEqual(mp);
  });
});
