// Hostile polygons against the validity check: the work done (edge pairs compared) stays near-linear, answers unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Position } from "../../../src/geo/types.ts";
import { type ValidityStats, validityProblem } from "../../../src/geo/validity.ts";
import { pushedVertexPosition, spiralRing } from "../../hostile/spiral.ts";
import { containmentReference, meetingProblems, refRings } from "../../hostile/validity-reference.ts";

const work = (type: "Polygon" | "MultiPolygon", coordinates: Position[][] | Position[][][]) => {
  const stats: ValidityStats = { edgePairs: 0 };
  return { problem: validityProblem(type, coordinates, stats), pairs: stats.edgePairs };
};
// Near-linear: at most c n log2 n pairs (measured about 1.4 for the spiral); all pairs would be n^2 / 2.
const bound = (n: number) => 4 * n * Math.log2(n);

// A square around the spiral (whose radius is n / 2 units of 1e-6 degree), for the spiral as a hole or a second part.
const around = (n: number, off = 0): Position[] => {
  const r = (n / 2 + 10) * 1e-6;
  const [x, y] = [151.2 + off, -33.87];
  return [
    [x - r, y - r],
    [x + r, y - r],
    [x + r, y + r],
    [x - r, y + r],
    [x - r, y - r],
  ];
};

describe("a thick spiral (nested edge boxes) is checked in near-linear work", () => {
  const pairs = new Map<number, number>();
  for (const n of [5_000, 10_000, 20_000]) {
    it(`${n} vertices: valid, within c n log n edge pairs`, () => {
      const { problem, pairs: p } = work("Polygon", [spiralRing(n + 1)]);
      expect(problem).toBeNull();
      expect(p).toBeGreaterThanOrEqual(n);
      expect(p).toBeLessThanOrEqual(bound(n));
      pairs.set(n, p);
    });
  }

  it("doubling the vertices about doubles the work (quadratic would be 4x)", () => {
    const ratio = (pairs.get(20_000) as number) / (pairs.get(10_000) as number);
    expect(ratio).toBeGreaterThan(1.7);
    expect(ratio).toBeLessThan(2.6);
  });

  it("the twin with one vertex pushed across its winding is refused at the right ring, at that vertex", () => {
    const n = 20_000;
    const bad = spiralRing(n + 1, { crossing: true });
    const at = pushedVertexPosition(n + 1);
    const alone = work("Polygon", [bad]);
    expect(alone.problem?.path).toEqual([0]);
    expect(alone.problem?.message).toMatch(
      /^The outer ring crosses or touches itself near .* must not self-intersect$/,
    );
    const [, i, j] = /edges from positions (\d+) and (\d+)/.exec(alone.problem?.message ?? "") ?? [];
    expect([Number(i), Number(j)].some((p) => p === at - 1 || p === at)).toBe(true);
    expect(alone.pairs).toBeLessThanOrEqual(bound(n));

    const r = (n / 2) * 1e-6;
    const corner: Position[] = [
      [151.2 + 0.8 * r, -33.87 + 0.8 * r],
      [151.2 + 0.9 * r, -33.87 + 0.8 * r],
      [151.2 + 0.9 * r, -33.87 + 0.9 * r],
      [151.2 + 0.8 * r, -33.87 + 0.9 * r],
      [151.2 + 0.8 * r, -33.87 + 0.8 * r],
    ];
    expect(work("Polygon", [around(n), corner, spiralRing(n + 1)]).problem).toBeNull();
    const hole = work("Polygon", [around(n), corner, bad]);
    expect(hole.problem?.path).toEqual([2]);
    expect(hole.problem?.message).toMatch(/^Hole 2 crosses or touches itself near/);
    const part = work("MultiPolygon", [[around(n, 1)], [bad]]);
    expect(part.problem?.path).toEqual([1, 0]);
    expect(part.problem?.message).toMatch(/^The outer ring of polygon 2 crosses or touches itself/);
  });

  it("the valid spiral as a hole, and beside another part, is still valid", () => {
    const n = 20_000;
    expect(work("Polygon", [around(n), spiralRing(n + 1)]).problem).toBeNull();
    const far = work("MultiPolygon", [[around(n, 1)], [spiralRing(n + 1)]]);
    expect(far.problem).toBeNull();
    expect(far.pairs).toBeLessThanOrEqual(bound(n + 4));
  });
});

describe("other shapes that defeat box indexes stay near-linear", () => {
  it("a star of 10,000 spikes (every spike's box overlaps its neighbours')", () => {
    const n = 20_000;
    const ring: Position[] = [];
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      const r = i % 2 === 0 ? 0.01 : 0.001;
      ring.push([151.2 + r * Math.cos(a), -33.87 + r * Math.sin(a)]);
    }
    ring.push(ring[0] as Position);
    const { problem, pairs } = work("Polygon", [ring]);
    expect(problem).toBeNull();
    expect(pairs).toBeLessThanOrEqual(bound(n));
  });

  it("5,000 holes in one shell, and 1,000 parts nested as islands in lakes: containment without all pairs", () => {
    const sq = (x: number, y: number, s: number): Position[] => [
      [x, y],
      [x + s, y],
      [x + s, y + s],
      [x, y + s],
      [x, y],
    ];
    const holes = Array.from({ length: 5_000 }, (_, k) => sq(1 + (k % 100) * 2, 1 + Math.floor(k / 100) * 2, 1));
    const many = work("Polygon", [sq(0, 0, 202), ...holes]);
    expect(many.problem).toBeNull();
    expect(many.pairs).toBeLessThanOrEqual(bound(25_005));
    // Part k is a square annulus inside part k-1's hole: 2,000 rings deep.
    const parts = Array.from({ length: 1_000 }, (_, k) => [
      sq(4 * k, 4 * k, 8000 - 8 * k),
      sq(4 * k + 2, 4 * k + 2, 8000 - 8 * k - 4),
    ]);
    expect(work("MultiPolygon", parts).problem).toBeNull();
    // Without part 501's lake, part 502 lies inside it: found by one walk, named as before.
    const broken = parts.map((p, k) => (k === 500 ? [p[0] as Position[]] : p));
    expect(work("MultiPolygon", broken).problem).toEqual({
      path: [501],
      message: "Polygon 502 lies inside polygon 501: the parts of a MultiPolygon must not overlap",
    });
  });
});

describe("the sweep agrees with all-pairs brute force on small polygons", () => {
  // Small integer grids: touching vertices, collinear overlaps and pinches are common, and exact.
  const pt = (max: number) => fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }));
  const closed = (pts: [number, number][]): Position[] => [...pts, pts[0] as [number, number]];
  const scribble = fc.array(pt(5), { minLength: 3, maxLength: 8 }).map(closed);
  // Star-shaped rings around a random centre are often simple, so valid polygons and nesting get exercised too.
  const star = fc
    .tuple(
      pt(12),
      fc.integer({ min: 1, max: 6 }),
      fc.array(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 7 }),
    )
    .map(([[cx, cy], r, angles]) =>
      closed(
        [...new Set(angles)]
          .sort((a, b) => a - b)
          .map((a, k) => {
            const rr = k % 2 === 0 ? r : Math.max(1, r - 2);
            return [
              cx + Math.round(rr * Math.cos((a * Math.PI) / 180)),
              cy + Math.round(rr * Math.sin((a * Math.PI) / 180)),
            ];
          }),
      ),
    );
  const ring = fc.oneof(scribble, star, star);
  const polygon = fc.tuple(ring, fc.array(ring, { maxLength: 2 })).map(([shell, holes]) => [shell, ...holes]);
  const geometry = fc.oneof(
    polygon.map((c) => ({ type: "Polygon" as const, coordinates: c })),
    fc.array(polygon, { minLength: 1, maxLength: 3 }).map((c) => ({ type: "MultiPolygon" as const, coordinates: c })),
  );

  it("same verdict; a crossing reported is one brute force finds; containment answers are identical", () => {
    fc.assert(
      fc.property(geometry, ({ type, coordinates }) => {
        const got = validityProblem(type, coordinates);
        if (got && /encloses no area|doubles back/.test(got.message)) return; // unchanged per-ring checks, before any pair
        const rings = refRings(type, coordinates);
        const meets = meetingProblems(rings);
        if (meets.length > 0) {
          expect(got).not.toBeNull();
          expect(meets).toContainEqual(got);
        } else expect(got).toEqual(containmentReference(rings));
      }),
      { numRuns: 3000 },
    );
  });
});
