// Issue 47 (finding 3): a lot of thousands of vertices meets each overlay feature through the feature's few windows
// (the smaller side is cut into windows), not a fan of a triangle per lot vertex clipped against every feature.
// Same areas as cutting the lot into its fan; the work is bounded by the points clipped, not by time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Piece,
  intersectPiece,
  lotClip,
  meet,
  pieceArea,
  ringsInBox,
  unionArea,
  windowsOf,
} from "../../../src/geo/clip.ts";
import { clipWork } from "../../../src/geo/clip-pass.ts";
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

// A wavy ring of `n` vertices about (cx, cy) with mean radius r: concave every few vertices, as a zone boundary is.
const wavy = (cx: number, cy: number, r: number, n: number): Ring =>
  Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * k) / n;
    const rr = r * (1 + 0.3 * Math.sin(7 * a));
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
  });

describe("a large lot meets a large feature by halving both, not through either's windows", () => {
  it("gives the same overlap and the same overlap of overlaps as the fan when both sides have 65 to 160 vertices", () => {
    fc.assert(
      fc.property(
        starArb(0, 0, 65, 160, 0.013),
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), starArb(0, 0, 65, 160, 0.41)),
        (lot, [dx, f]) => {
          const feature = f.map(([x, y]) => [x + dx, y * 0.8] as [number, number]);
          const { clip, rings } = prepared(lot, [feature]);
          const ring = rings[0] as Piece;
          const tol = clip.area * 1e-9;
          const part = meet(clip.piece, ring, clip.windows);
          const before = fanned(clip.piece, ring);
          expect(Math.abs(pieceArea(part) - pieceArea(before))).toBeLessThanOrEqual(tol);
          const twice = pieceArea(meet(part, ring));
          expect(Math.abs(twice - pieceArea(fanned(before, ring)))).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 100, seed: 48 },
    );
  });

  it("clips a meandering lot against a wavy zone in points growing well below n·m with their vertices", () => {
    const work = (lotVertices: number, zoneVertices: number, fan: boolean) => {
      // A lot with a creek frontage: a disc whose edge meanders, crossed by the zone's wavy boundary.
      const lot: Ring = Array.from({ length: lotVertices }, (_, k) => {
        const a = (2 * Math.PI * k) / lotVertices;
        const r = 1 + 0.02 * Math.sin(400 * a);
        return [r * Math.cos(a), r * Math.sin(a)];
      });
      const { clip, rings } = prepared(lot, [wavy(0.25, 0, 1, zoneVertices)]);
      clipWork.points = 0;
      const area = pieceArea(meet(clip.piece, rings[0] as Piece, clip.windows));
      const points = clipWork.points;
      clipWork.points = 0;
      const fanArea = fan ? pieceArea(fanned(clip.piece, rings[0] as Piece)) : area;
      return { area, fanArea, points, fanPoints: clipWork.points, tol: clip.area * 1e-9 };
    };
    const small = work(5_000, 1_000, true);
    expect(Math.abs(small.area - small.fanArea)).toBeLessThanOrEqual(small.tol);
    // The fan clipped the zone's 1,000 vertices once per triangle of the lot: millions of points.
    expect(small.fanPoints).toBeGreaterThan(10 * small.points);
    // Four times the vertices on both sides: under 10 times the points (about 9.5 measured), where n·m is 16 times.
    const large = work(20_000, 4_000, false);
    expect(large.points).toBeLessThanOrEqual(10 * small.points);
  });

  it("meets a 50,001-position spiral winding through a 1,000-vertex zone with the area the zone's windows give", () => {
    // Every window line cuts most windings, so a pass may more than double its ring: the scratch must grow per pass.
    const spiral = spiralRing(50_001, { unit: 1e-5 }).slice(0, -1) as Ring;
    const xs = spiral.map((p) => p[0]);
    const ys = spiral.map((p) => p[1]);
    const [w, s, e, n] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    const zone = wavy((w + e) / 2 + (e - w) / 4, (s + n) / 2, (e - w) / 3, 1_000);
    const { clip, rings } = prepared(spiral, [zone]);
    const ring = rings[0] as Piece;
    const byZone = pieceArea(intersectPiece(windowsOf(ring), clip.piece));
    expect(byZone).toBeGreaterThan(0.3 * clip.area);
    expect(Math.abs(pieceArea(meet(clip.piece, ring, clip.windows)) - byZone)).toBeLessThanOrEqual(clip.area * 1e-9);
  });
});
