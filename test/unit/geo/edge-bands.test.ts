// The polygon edge index a drawn search area uses: the same answer as pointInFeature for every point, bit for bit,
// while a point tests a handful of edges instead of every vertex of a 1,000-vertex polygon.
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import { EdgeBands } from "../../../src/geo/edge-bands.ts";
import { pointInFeature } from "../../../src/geo/pip.ts";
import type { PolygonGeometry, Position } from "../../../src/geo/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import { packs } from "../chat/demo-packs.ts";

const close = (ring: Position[]): Position[] => [...ring, ring[0] as Position];

// A wobbly circle of n vertices round (cx, cy).
function circle(n: number, cx: number, cy: number, r: number): Position[] {
  return Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * k) / n;
    const rr = r * (1 + 0.05 * Math.sin(7 * a));
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
  });
}

// A spiral band of n vertices: out along one arm, back along the other (the round-three payload's shape).
function spiral(n: number, turns: number): Position[] {
  const half = n / 2;
  const arm = (k: number, off: number): Position => {
    const a = (2 * Math.PI * turns * k) / half;
    const r = 0.1 + a * 0.02 + off;
    return [r * Math.cos(a), r * Math.sin(a)];
  };
  const out = Array.from({ length: half }, (_, k) => arm(k, 0));
  const back = Array.from({ length: half }, (_, k) => arm(half - 1 - k, 0.01));
  return [...out, ...back];
}

const SHAPES: Record<string, PolygonGeometry> = {
  "a 1,000-vertex circle": { type: "Polygon", coordinates: [close(circle(1000, 0, 0, 1))] },
  "a circle with a hole": {
    type: "Polygon",
    coordinates: [close(circle(400, 0, 0, 1)), close(circle(300, 0.1, 0, 0.5).reverse())],
  },
  "a 1,000-vertex spiral": { type: "Polygon", coordinates: [close(spiral(1000, 5))] },
};

describe("EdgeBands", () => {
  for (const [name, g] of Object.entries(SHAPES)) {
    it(`${name}: inside exactly where pointInFeature says, vertices and edges included`, () => {
      const c = columnsFromGeometry(g);
      const idx = new EdgeBands(c);
      const vertex = fc
        .integer({ min: 0, max: c.coords.length / 2 - 1 })
        .map((v) => [c.coords[2 * v], c.coords[2 * v + 1]]);
      const anywhere = fc.tuple(
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
      );
      fc.assert(
        fc.property(fc.oneof(anywhere, vertex), ([x, y]) => {
          expect(idx.contains(x as number, y as number)).toBe(pointInFeature(c, 0, x as number, y as number));
        }),
        { numRuns: 3000, seed: 47 },
      );
    });
  }

  it("a point of a 1,000-vertex circle tests a few edges, not 1,000", () => {
    const idx = new EdgeBands(columnsFromGeometry(SHAPES["a 1,000-vertex circle"] as PolygonGeometry));
    const N = 10_000;
    let most = 0;
    for (let k = 0; k < N; k++) {
      const before = idx.edgesTested;
      idx.contains(-1.2 + (2.4 * ((k * 7919) % N)) / N, -1.2 + (2.4 * k) / N);
      most = Math.max(most, idx.edgesTested - before);
    }
    expect(idx.edgesTested / N).toBeLessThanOrEqual(4);
    // Near the top and bottom many nearly level edges share a band: still a few dozen, not 1,000.
    expect(most).toBeLessThanOrEqual(50);
  });

  it("a point of a 1,000-vertex spiral of five turns tests about two edges a turn, not 1,000", () => {
    const idx = new EdgeBands(columnsFromGeometry(SHAPES["a 1,000-vertex spiral"] as PolygonGeometry));
    const N = 10_000;
    for (let k = 0; k < N; k++) idx.contains(-0.8 + (1.6 * ((k * 7919) % N)) / N, -0.8 + (1.6 * k) / N);
    expect(idx.edgesTested / N).toBeLessThanOrEqual(30);
  });
});

describe("a drawn search area", () => {
  it("tests its lots through the edge index: a few edges a lot for a 1,000-vertex polygon", async () => {
    const p: VisiblePacks = openPacks(packs);
    // Round Epping, most of its lots inside.
    const ring = close(circle(1000, 151.082, -33.773, 0.012));
    const found = await searchSites(p, { area: { polygon: { type: "Polygon", coordinates: [ring] } }, limit: 1 });
    expect(found.count).toBeGreaterThan(100);
    expect(found.work.edgesTested).toBeGreaterThan(0);
    // Only lots inside the polygon's box reach the polygon test; each tests a few edges of its band.
    expect(found.work.edgesTested / found.count).toBeLessThanOrEqual(8);
  });
});
