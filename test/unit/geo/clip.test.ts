import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intersectPiece, lotClip, pieceArea, ringsInBox, unionArea } from "../../../src/geo/clip.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";

type Ring = number[][];

function signed(r: Ring): number {
  let s = 0;
  for (let i = 0; i < r.length; i++) {
    const a = r[i]!;
    const b = r[(i + 1) % r.length]!;
    s += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  return s / 2;
}

function inside(rings: Ring[], x: number, y: number): boolean {
  let c = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i] as [number, number];
      const [xj, yj] = r[j] as [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
  }
  return c;
}

// Independent reference: Green's theorem over the boundary of lot & (union of features), found by
// splitting every edge where it crosses another shape's edge and keeping the pieces whose midpoint
// lies on the right side. Outer rings run counter-clockwise, holes clockwise.
function greenArea(lot: Ring[], features: Ring[][]): number {
  const orient = (rings: Ring[]) => rings.map((r, k) => (signed(r) > 0 === (k === 0) ? r : r.slice().reverse()));
  const shapes = [orient(lot), ...features.map(orient)];
  const edges = shapes.flatMap((rings, owner) =>
    rings.flatMap((r) => r.map((a, i) => ({ owner, a, b: r[(i + 1) % r.length]! }))),
  );
  let area = 0;
  for (const e of edges) {
    const ts = [0, 1];
    const [ax, ay] = e.a as [number, number];
    const dx = e.b[0]! - ax;
    const dy = e.b[1]! - ay;
    for (const f of edges) {
      if (f.owner === e.owner) continue;
      const ex = f.b[0]! - f.a[0]!;
      const ey = f.b[1]! - f.a[1]!;
      const den = dx * ey - dy * ex;
      if (den === 0) continue;
      const t = ((f.a[0]! - ax) * ey - (f.a[1]! - ay) * ex) / den;
      const u = ((f.a[0]! - ax) * dy - (f.a[1]! - ay) * dx) / den;
      if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
    }
    ts.sort((p, q) => p - q);
    for (let k = 0; k + 1 < ts.length; k++) {
      const t0 = ts[k]!;
      const t1 = ts[k + 1]!;
      const mx = ax + dx * ((t0 + t1) / 2);
      const my = ay + dy * ((t0 + t1) / 2);
      const inFeature = (skip: number) => shapes.some((s, o) => o > 0 && o !== skip && inside(s, mx, my));
      const keep = e.owner === 0 ? inFeature(-1) : inside(shapes[0]!, mx, my) && !inFeature(e.owner);
      if (!keep) continue;
      const x0 = ax + dx * t0,
        y0 = ay + dy * t0,
        x1 = ax + dx * t1,
        y1 = ay + dy * t1;
      area += (x0 * y1 - x1 * y0) / 2;
    }
  }
  return area;
}

const closed = (r: Ring) => [...r, r[0]!];
const polygon = (rings: Ring[]): AreaGeometry => ({ type: "Polygon", coordinates: rings.map(closed) });

// The frame scales longitude by cos(lat0); dividing it out compares with plain planar areas.
function overlap(lot: AreaGeometry, other: AreaGeometry): number {
  const clip = lotClip(columnsFromGeometry(lot), 0);
  const rings = ringsInBox(columnsFromGeometry(other), 0, clip.frame, clip.box);
  return pieceArea(intersectPiece(clip.windows, rings)) / clip.frame.kx;
}

// Star-shaped rings around a centre (distinct angles in 32nds of a turn, radii in tenths, a small twist
// so different shapes never share an edge) are simple; concave whenever the radii differ.
// Angles on a 1/32-turn lattice, turned by a twist: lots twist by [0, 0.09] rad, features by [0.1, 0.19], so a
// feature never shares a vertex or an edge's line with the lot by construction (the Green's-theorem reference
// cannot split collinear overlapping edges; those cases have a test of their own below).
const starRing = (cx: number, cy: number, n: number, twistFrom = 0) =>
  fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 0, max: 31 }), { minLength: n, maxLength: n + 8 }),
      fc.array(fc.integer({ min: 2, max: 10 }), { minLength: n + 8, maxLength: n + 8 }),
      fc.double({ min: twistFrom, max: twistFrom + 0.09, noNaN: true }),
    )
    .map(([angles, radii, twist]) =>
      angles
        .slice()
        .sort((a, b) => a - b)
        .map((a, k) => [
          cx + (radii[k]! / 10) * Math.cos((a * Math.PI) / 16 + twist),
          cy + (radii[k]! / 10) * Math.sin((a * Math.PI) / 16 + twist),
        ]),
    )
    .filter((pts) => {
      // Keep the centre inside: no gap of half a turn or more between consecutive angles.
      const a = pts.map(([x, y]) => Math.atan2(y! - cy, x! - cx)).sort((p, q) => p - q);
      return a.every((v, k) => (k === 0 ? v - a[a.length - 1]! + 2 * Math.PI : v - a[k - 1]!) < Math.PI - 1e-9);
    });

describe("convex clipping overlap", () => {
  it("halves a unit square cut down the middle", () => {
    const lot = polygon([
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
    ]);
    const west = polygon([
      [
        [-1, -1],
        [-1, 2],
        [0.5, 2],
        [0.5, -1],
      ],
    ]);
    expect(overlap(lot, west)).toBeCloseTo(0.5, 12);
    expect(overlap(lot, lot)).toBeCloseTo(1, 12);
  });

  it("subtracts holes, on the lot or on the feature, and handles a concave lot", () => {
    const donut = polygon([
      [
        [0, 0],
        [4, 0],
        [4, 4],
        [0, 4],
      ],
      [
        [1, 1],
        [1, 3],
        [3, 3],
        [3, 1],
      ],
    ]);
    const all = polygon([
      [
        [-1, -1],
        [5, -1],
        [5, 5],
        [-1, 5],
      ],
    ]);
    expect(overlap(donut, all)).toBeCloseTo(12, 10);
    expect(overlap(all, donut)).toBeCloseTo(12, 10);
    const lShape = polygon([
      [
        [0, 0],
        [2, 0],
        [2, 1],
        [1, 1],
        [1, 2],
        [0, 2],
      ],
    ]);
    expect(overlap(lShape, all)).toBeCloseTo(3, 10);
    // The hole takes [0.5, 1.5] x [0.5, 1] and [0.5, 1] x [1, 1.5] out of the L: 3 - 0.5 - 0.25.
    const offCentre = polygon([
      [
        [0, 0],
        [4, 0],
        [4, 4],
        [0, 4],
      ],
      [
        [0.5, 0.5],
        [0.5, 1.5],
        [1.5, 1.5],
        [1.5, 0.5],
      ],
    ]);
    expect(overlap(lShape, offCentre)).toBeCloseTo(2.25, 10);
  });

  it("gives 0 for a neighbour sharing an edge", () => {
    const lot = polygon([
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
    ]);
    const east = polygon([
      [
        [1, 0],
        [2, 0],
        [2, 1],
        [1, 1],
      ],
    ]);
    expect(Math.abs(overlap(lot, east))).toBeLessThan(1e-15);
  });

  it("the reference agrees with areas worked out by hand", () => {
    const square: Ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    expect(
      greenArea(
        [square],
        [
          [
            [
              [0.5, -1],
              [2, -1],
              [2, 2],
              [0.5, 2],
            ],
          ],
        ],
      ),
    ).toBeCloseTo(0.5, 12);
    expect(
      greenArea(
        [square],
        [
          [
            [
              [0.5, -1],
              [2, -1],
              [2, 2],
              [0.5, 2],
            ],
          ],
          [
            [
              [-1, 0.5],
              [2, 0.5],
              [2, 2],
              [-1, 2],
            ],
          ],
        ],
      ),
    ).toBeCloseTo(0.75, 12);
  });

  it("matches Green's theorem on random concave lots and features, with and without holes", () => {
    fc.assert(
      fc.property(starRing(0, 0, 3), starRing(0.3, -0.2, 3, 0.1), fc.boolean(), (a, b, holed) => {
        // A shrunken copy about the star's centre is always inside it: a hole.
        const hole = b.map(([x, y]) => [0.3 + (x! - 0.3) * 0.4, -0.2 + (y! + 0.2) * 0.4]);
        const rings = holed ? [b, hole] : [b];
        expect(overlap(polygon([a]), polygon(rings))).toBeCloseTo(greenArea([a], [rings]), 9);
      }),
      { numRuns: 400 },
    );
  });

  it("unions overlapping features by inclusion-exclusion", () => {
    fc.assert(
      fc.property(
        starRing(0, 0, 4),
        fc
          .array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })), {
            minLength: 1,
            maxLength: 4,
          })
          .chain((cs) => fc.tuple(...cs.map(([x, y]) => starRing(x / 10, y / 10, 3, 0.1)))),
        (lotRing, features) => {
          const clip = lotClip(columnsFromGeometry(polygon([lotRing])), 0);
          const rings = features.map((f) => ringsInBox(columnsFromGeometry(polygon([f])), 0, clip.frame, clip.box));
          const pieces = rings.map((r) => intersectPiece(clip.windows, r));
          const union = unionArea(pieces, rings, 1e-12, 10_000);
          expect(union).not.toBeNull();
          expect((union as number) / clip.frame.kx).toBeCloseTo(
            greenArea(
              [lotRing],
              features.map((f) => [f]),
            ),
            9,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("unions features that share a vertex with the lot (fast-check's counterexample), as a fine grid measures it", () => {
    const lotRing = [
      [0.5, 0],
      [0.1961570560806461, 0.03901806440322565],
      [0.18477590650225736, 0.07653668647301796],
      [0.16629392246050906, 0.11111404660392044],
      [0.14142135623730953, 0.1414213562373095],
      [-0.16629392246050909, 0.11111404660392044],
      [0.3535533905932737, -0.35355339059327384],
    ];
    const features = [
      [
        [0, -0.2],
        [-0.2, 0],
        [-0.3961570560806461, -0.23901806440322568],
      ],
      [
        [0.5, 0],
        [0.1337060775394909, 0.11111404660392044],
        [0.4414213562373095, -0.14142135623730953],
      ],
    ];
    const clip = lotClip(columnsFromGeometry(polygon([lotRing])), 0);
    const rings = features.map((f) => ringsInBox(columnsFromGeometry(polygon([f])), 0, clip.frame, clip.box));
    const union = unionArea(
      rings.map((r) => intersectPiece(clip.windows, r)),
      rings,
      1e-12,
      10_000,
    );
    // Cell centres of a 2000 x 2000 grid over the lot's box: area to about 1e-5.
    const [x0, y0, x1, y1] = [-0.17, -0.36, 0.5, 0.15];
    const n = 2000;
    let hits = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const x = x0 + ((x1 - x0) * (i + 0.5)) / n;
        const y = y0 + ((y1 - y0) * (j + 0.5)) / n;
        if (inside([lotRing], x, y) && features.some((f) => inside([f], x, y))) hits++;
      }
    const grid = (hits / n / n) * (x1 - x0) * (y1 - y0);
    expect(union).not.toBeNull();
    expect((union as number) / clip.frame.kx).toBeCloseTo(grid, 4);
  });

  it("gives up (null) rather than run past the term budget", () => {
    const lot = lotClip(
      columnsFromGeometry(
        polygon([
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ]),
      ),
      0,
    );
    const rings = [0, 1, 2, 3].map((k) =>
      ringsInBox(
        columnsFromGeometry(
          polygon([
            [
              [-1, -1],
              [2 + k, -1],
              [2, 2],
              [-1, 2],
            ],
          ]),
        ),
        0,
        lot.frame,
        lot.box,
      ),
    );
    const pieces = rings.map((r) => intersectPiece(lot.windows, r));
    expect(unionArea(pieces, rings, 1e-12, 3)).toBeNull();
    expect(unionArea(pieces, rings, 1e-12)! / lot.frame.kx).toBeCloseTo(1, 12);
  });
});
