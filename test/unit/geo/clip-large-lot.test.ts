// Issue 47 (finding 3): a lot of thousands of vertices meets each overlay feature through the feature's few windows
// (the smaller side is cut into windows), not a fan of a triangle per lot vertex clipped against every feature.
// Same areas as cutting the lot into its fan; the work is bounded by the points clipped, not by time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Piece,
  clipWork,
  intersectPiece,
  lotClip,
  meet,
  pieceArea,
  ringsInBox,
  unionArea,
  windowsOf,
} from "../../../src/geo/clip.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { spiralRing } from "../../hostile/spiral.ts";

type Ring = [number, number][];
const polygon = (ring: Ring): AreaGeometry => ({
  type: "Polygon",
  coordinates: [[...ring, ring[0] as [number, number]]],
});

// A star-shaped ring of `n` vertices (radii 0.5 to 1, so concave wherever they differ) about (cx, cy).
const star = (cx: number, cy: number, radii: readonly number[], twist: number): Ring =>
  radii.map((r, k) => {
    const a = (2 * Math.PI * k) / radii.length + twist;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });

const starArb = (cx: number, cy: number, min: number, max: number, twist: number) =>
  fc
    .array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: min, maxLength: max })
    .map((radii) => star(cx, cy, radii, twist));

// The lot's piece and a feature's rings cut to the lot's box, in the lot's frame (as overlay.ts prepares them).
function prepared(lot: Ring, features: readonly Ring[]) {
  const clip = lotClip(columnsFromGeometry(polygon(lot)), 0);
  const rings = features.map((f) => ringsInBox(columnsFromGeometry(polygon(f)), 0, clip.frame, clip.box));
  return { clip, rings };
}

// What the overlap was before: the lot's fan of windows clipped against the feature, whatever their sizes.
const fanned = (a: Piece, b: Piece) => intersectPiece(windowsOf(a), b);

describe("a large lot meets a small feature through the feature's windows", () => {
  it("gives the same overlap, the same overlap of two overlaps and the same union as the lot's fan", () => {
    fc.assert(
      fc.property(
        starArb(0, 0, 65, 160, 0.013),
        fc.array(
          fc.tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
            starArb(0, 0, 3, 9, 0.41),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        (lot, placed) => {
          const features = placed.map(([dx, dy, f]) =>
            f.map(([x, y]) => [x * 0.6 + dx, y * 0.6 + dy] as [number, number]),
          );
          const { clip, rings } = prepared(lot, features);
          const tol = clip.area * 1e-9;
          const parts = rings.map((r) => meet(clip.piece, r, clip.windows));
          const before = rings.map((r) => fanned(clip.piece, r));
          parts.forEach((p, k) => {
            expect(Math.abs(pieceArea(p) - pieceArea(before[k] as Piece))).toBeLessThanOrEqual(tol);
          });
          // The overlap of two overlaps, as overlapShare takes it.
          for (let i = 0; i < parts.length; i++) {
            for (let j = 0; j < rings.length; j++) {
              const now = pieceArea(meet(parts[i] as Piece, rings[j] as Piece));
              const then = pieceArea(fanned(before[i] as Piece, rings[j] as Piece));
              expect(Math.abs(now - then)).toBeLessThanOrEqual(tol);
            }
          }
          // The union by inclusion-exclusion, against the same sum taken through the lot's fan.
          const union = unionArea(parts, rings, 0);
          let expected = 0;
          const extend = (piece: Piece, sign: number, next: number) => {
            for (let j = next; j < rings.length; j++) {
              const q = fanned(piece, rings[j] as Piece);
              expected += sign * pieceArea(q);
              extend(q, -sign, j + 1);
            }
          };
          before.forEach((p, i) => {
            expected += pieceArea(p);
            extend(p, -1, i + 1);
          });
          expect(union).not.toBeNull();
          expect(Math.abs((union as number) - expected)).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 150, seed: 47 },
    );
  });

  it("clips a 5,000-vertex spiral lot against 40 small features with points in proportion to its vertices, not a fan per feature", () => {
    const spiral = spiralRing(5_001, { unit: 1e-5 }).slice(0, -1) as Ring;
    const xs = spiral.map((p) => p[0]);
    const ys = spiral.map((p) => p[1]);
    const [w, s, e, n] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    // Forty overlapping squares on a diagonal across the spiral, as zoning or flood blocks would lie.
    const features: Ring[] = Array.from({ length: 40 }, (_, k) => {
      const x = w + ((e - w) * k) / 40;
      const y = s + ((n - s) * k) / 40;
      const d = (e - w) / 8;
      return [
        [x, y],
        [x + d, y],
        [x + d, y + d],
        [x, y + d],
      ];
    });
    const { clip, rings } = prepared(spiral, features);
    const vertices = spiral.length;

    clipWork.points = 0;
    clipWork.rings = 0;
    const parts = rings.map((r) => meet(clip.piece, r, clip.windows));
    const union = unionArea(parts.slice(0, 6), rings.slice(0, 6), 0);
    const work = { ...clipWork };

    clipWork.points = 0;
    clipWork.rings = 0;
    const fannedParts = rings.map((r) => fanned(clip.piece, r));
    const fannedPairs = fannedParts.slice(0, 6).flatMap((p, i) => rings.slice(i + 1, 6).map((r) => fanned(p, r)));
    const fanWork = { ...clipWork };

    expect(union).not.toBeNull();
    expect(pieceArea(parts[20] as Piece)).toBeCloseTo(pieceArea(fannedParts[20] as Piece), 12);
    expect(fannedPairs.length).toBe(15);
    // One clip of the lot's ring per feature window, and per union term; each of 4 planes over at most the lot's
    // vertices and the points a cut adds.
    expect(work.rings).toBeLessThanOrEqual(features.length + 64);
    expect(work.points).toBeLessThanOrEqual(8 * vertices * (features.length + 64));
    // The fan clipped every feature ring against each of the lot's 4,998 triangles, and each pair's parts again.
    expect(fanWork.rings).toBeGreaterThan(1_000 * work.rings);
    expect(fanWork.points).toBeGreaterThan(2 * work.points);
  });
});
