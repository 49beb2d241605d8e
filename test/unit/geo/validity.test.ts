// Polygon validity: self-crossing, touching, spikes, degenerate rings, holes and MultiPolygon parts.
import { describe, expect, it } from "vitest";
import { segmentsMeet, validityProblem } from "../../../src/geo/validity.ts";
import { areaM2 } from "../../../src/geo/geodesic-area.ts";
import type { Position } from "../../../src/geo/types.ts";

// A ring in small metre-like offsets around Sydney, closed for the caller.
const O = [151.2, -33.87] as const;
const ring = (...pts: [number, number][]): Position[] => {
  const r = pts.map(([x, y]) => [O[0] + x * 1e-4, O[1] + y * 1e-4]);
  return [...r, r[0] as Position];
};
const poly = (...rings: Position[][]) => validityProblem("Polygon", rings);

const square = ring([0, 0], [4, 0], [4, 4], [0, 4]);

describe("valid polygons pass", () => {
  it("a square, either winding, with repeated consecutive positions", () => {
    expect(poly(square)).toBeNull();
    expect(poly([...square].reverse())).toBeNull();
    expect(poly(ring([0, 0], [0, 0], [4, 0], [4, 4], [4, 4], [0, 4]))).toBeNull();
  });

  it("a concave L-shaped lot with a redundant straight-through vertex", () => {
    expect(poly(ring([0, 0], [2, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]))).toBeNull();
  });

  it("a polygon with a hole well inside it", () => {
    expect(poly(square, ring([1, 1], [2, 1], [2, 2], [1, 2]))).toBeNull();
  });

  it("a MultiPolygon of parts apart, and an island inside another part's hole", () => {
    const far = ring([10, 0], [12, 0], [12, 2], [10, 2]);
    expect(validityProblem("MultiPolygon", [[square], [far]])).toBeNull();
    const lake = ring([1, 1], [3, 1], [3, 3], [1, 3]);
    const island = ring([1.5, 1.5], [2.5, 1.5], [2.5, 2.5], [1.5, 2.5]);
    expect(validityProblem("MultiPolygon", [[square, lake], [island]])).toBeNull();
  });

  it("a 10,000-vertex circle", () => {
    const n = 9_999;
    const pts: Position[] = [];
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      pts.push([O[0] + 0.01 * Math.cos(a), O[1] + 0.01 * Math.sin(a)]);
    }
    pts.push(pts[0] as Position);
    expect(pts.length).toBe(10_000);
    expect(poly(pts)).toBeNull();
  });
});

describe("self-intersecting rings are refused with where they meet", () => {
  it("a bowtie: the outer ring crosses itself at its middle", () => {
    const bowtie = ring([0, 0], [4, 4], [4, 0], [0, 4]);
    // The very shape the issue saw scored: its signed area cancels to nothing.
    expect(areaM2({ type: "Polygon", coordinates: [bowtie] })).toBeLessThan(1);
    const p = poly(bowtie);
    expect(p?.path).toEqual([0]);
    expect(p?.message).toBe(
      "The outer ring crosses or touches itself near [151.2002, -33.8698] (edges from positions 0 and 2): a parcel boundary must not self-intersect",
    );
  });

  it("a zero-width spike that goes out and back", () => {
    const p = poly(ring([0, 0], [4, 0], [4, 2], [8, 2], [4, 2], [4, 4], [0, 4]));
    expect(p?.path).toEqual([0]);
    expect(p?.message).toBe(
      "The outer ring doubles back on itself at [151.2008, -33.8698] (position 3): a parcel boundary must not run out and back along one line",
    );
  });

  it("a spike whose return leg stops short still overlaps its outward leg", () => {
    const p = poly(ring([0, 0], [4, 0], [4, 2], [8, 2], [6, 2], [6, 4], [0, 4]));
    expect(p?.message).toContain("doubles back on itself at [151.2008, -33.8698]");
  });

  it("a figure-eight whose loops touch at one vertex", () => {
    const p = poly(ring([0, 0], [2, 2], [4, 0], [4, 4], [2, 2], [0, 4]));
    expect(p?.message).toContain("The outer ring crosses or touches itself near [151.2002, -33.8698]");
  });

  it("a collinear overlap between edges that are not neighbours", () => {
    // Two prongs whose tips run along the same line y=4 from x=1..3 and x=2..5.
    const p = poly(ring([0, 0], [6, 0], [6, 4], [2, 4], [2, 2], [4, 2], [4, 4], [1, 4], [1, 6], [0, 6]));
    expect(p?.message).toContain("crosses or touches itself");
  });

  it("a vertex resting on a far edge (a pinch) counts as touching", () => {
    const p = poly(ring([0, 0], [4, 0], [4, 4], [2, 0.0], [0, 4]));
    expect(p?.message).toContain("crosses or touches itself near [151.2002, -33.87]");
  });

  it("a scribble: area larger than its box is no longer measured, it is refused", () => {
    const scribble = ring([0, 0], [4, 0], [0, 1], [4, 2], [0, 3], [4, 4], [0, 4]);
    expect(poly(scribble)?.message).toContain("crosses or touches itself");
  });
});

describe("degenerate rings enclose no area", () => {
  it("all positions on one line", () => {
    // Exactly collinear doubles (one latitude): offsets like 1e-4 * k would leave real, if thin, triangles.
    const line = [
      [151.2, -33.87],
      [151.201, -33.87],
      [151.203, -33.87],
      [151.202, -33.87],
      [151.2, -33.87],
    ];
    expect(poly(line)).toEqual({
      path: [0],
      message: "The outer ring encloses no area: its positions lie on one line",
    });
  });

  it("a degenerate hole is named as the hole", () => {
    expect(poly(square, ring([1, 1], [2, 1], [3, 1]))?.message).toBe(
      "Hole 1 encloses no area: its positions lie on one line",
    );
  });
});

describe("holes and parts", () => {
  it("a hole outside the outer ring", () => {
    expect(poly(square, ring([6, 6], [7, 6], [7, 7], [6, 7]))).toEqual({
      path: [1],
      message: "Hole 1 lies outside the outer ring: a hole must be inside the parcel",
    });
  });

  it("a hole crossing the outer ring", () => {
    const p = poly(square, ring([3, 1], [5, 1], [5, 2], [3, 2]));
    expect(p?.path).toEqual([1]);
    expect(p?.message).toContain("Hole 1 crosses or touches the outer ring near [151.2004, -33.8699]");
  });

  it("a hole inside another hole", () => {
    const big = ring([0.5, 0.5], [3.5, 0.5], [3.5, 3.5], [0.5, 3.5]);
    const small = ring([1, 1], [2, 1], [2, 2], [1, 2]);
    expect(poly(square, big, small)).toEqual({
      path: [2],
      message: "Hole 2 lies inside hole 1: holes must not overlap",
    });
  });

  it("MultiPolygon parts whose boundaries cross, or one inside the other", () => {
    const shifted = ring([2, 2], [6, 2], [6, 6], [2, 6]);
    const crossing = validityProblem("MultiPolygon", [[square], [shifted]]);
    expect(crossing?.path).toEqual([1]);
    expect(crossing?.message).toContain("Polygons 1 and 2 overlap or touch near");
    const inner = ring([1, 1], [2, 1], [2, 2], [1, 2]);
    expect(validityProblem("MultiPolygon", [[square], [inner]])).toEqual({
      path: [1],
      message: "Polygon 2 lies inside polygon 1: the parts of a MultiPolygon must not overlap",
    });
    expect(validityProblem("MultiPolygon", [[square], [square]])?.message).toContain("Polygons 1 and 2 overlap");
  });

  it("a bad ring in a MultiPolygon is located by part and ring", () => {
    const bowtie = ring([10, 0], [14, 4], [14, 0], [10, 4]);
    expect(validityProblem("MultiPolygon", [[square], [bowtie]])?.path).toEqual([1, 0]);
  });
});

describe("segmentsMeet is exact", () => {
  it("touching at an endpoint and collinear overlap meet; parallel and near misses do not", () => {
    expect(segmentsMeet(0, 0, 2, 0, 2, 0, 3, 1)).toEqual([2, 0]);
    expect(segmentsMeet(0, 0, 2, 0, 1, 0, 3, 0)).toEqual([1, 0]);
    expect(segmentsMeet(0, 0, 2, 0, 0, 1, 2, 1)).toBeNull();
    expect(segmentsMeet(0, 0, 2, 0, 3, 0, 4, 0)).toBeNull();
  });

  it("a point a hair off a segment does not touch it, though floating arithmetic calls it collinear", () => {
    const [ax, ay, bx, by] = [151.2, -33.87, 151.2037, -33.8731];
    const [px, py] = [151.20319569684378, -33.87267747573398];
    expect((bx - ax) * (py - ay) - (by - ay) * (px - ax)).toBe(0);
    // Exactly, p is just right of a->b; a segment leaving p further right never meets ab.
    expect(segmentsMeet(ax, ay, bx, by, px, py, px - 0.00031, py - 0.00037)).toBeNull();
    // Leaving p to the left it crosses ab.
    expect(segmentsMeet(ax, ay, bx, by, px, py, px + 0.00031, py + 0.00037)).not.toBeNull();
  });
});
