// LineString tiles (MVT 2.1, geometry type 2): the transport pack's lines clipped, snapped and decoded back.
import { readFileSync } from "node:fs";
import { VectorTile, type VectorTileFeature } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { cutTile } from "../../../src/tiles/cut.ts";
import { clipLine, snapLine } from "../../../src/tiles/line.ts";
import { BUFFER, EXTENT, projector, tileOf } from "../../../src/tiles/math.ts";

const transport = readPackBytes(
  readFileSync(new URL("../../../packs/sydney-transport.pack", import.meta.url)),
  "sydney-transport.pack",
);
// Central station, where T1 to T4, T8, T9 and the metro meet.
const CENTRAL = [151.205829, -33.883882] as const;

function decode(tile: { z: number; x: number; y: number }): VectorTile {
  const bytes = cutTile(transport, tile);
  if (!bytes) throw new Error("empty tile");
  return new VectorTile(new PbfReader(bytes));
}

function features(vt: VectorTile, layer: string): VectorTileFeature[] {
  const l = vt.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

describe("clipLine", () => {
  it("cuts a polyline crossing the square into the pieces inside, ending on its edges", () => {
    // In, out through x = 10, back in: two pieces.
    const pts = [0, 5, 20, 5, 20, 8, 5, 8];
    expect(clipLine(pts, 4, 0, 10)).toEqual([
      [0, 5, 10, 5],
      [10, 8, 5, 8],
    ]);
  });

  it("keeps a polyline wholly inside as one piece, and drops one wholly outside", () => {
    expect(clipLine([1, 1, 2, 2, 3, 1], 3, 0, 10)).toEqual([[1, 1, 2, 2, 3, 1]]);
    expect(clipLine([20, 20, 30, 30], 2, 0, 10)).toEqual([]);
  });
});

describe("snapLine", () => {
  it("rounds to the grid, drops vertices within the tolerance of the last kept, and always keeps the end", () => {
    // (1, 0) is within 1 of the start: dropped; the end (6, 5) is within 1 of (5, 5): it takes its place.
    expect(snapLine([0, 0, 0.4, 0.2, 0.9, 0, 5, 5, 5.6, 5.2], 1)).toEqual([0, 0, 6, 5]);
    expect(snapLine([0, 0, 3, 0, 6, 0], 1)).toEqual([0, 0, 3, 0, 6, 0]);
    expect(snapLine([0, 0, 0.2, 0.1], 1)).toEqual([0, 0]);
  });
});

describe("the lines layer of a tile", () => {
  it("is LineString features (type 2) with the line's name and colour, passing through Central at z14", () => {
    const tile = tileOf(CENTRAL[0], CENTRAL[1], 14);
    const lines = features(decode(tile), "lines");
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.every((f) => f.type === 2)).toBe(true);
    const t1 = lines.find((f) => f.properties.line === "T1");
    expect(t1?.properties.colour).toBe("#F99D1C");
    // Central's point lies on T1's path in the tile (a vertex, within a rounding unit).
    const at = new Float64Array(2);
    projector(tile)(CENTRAL[0], CENTRAL[1], at, 0);
    const vertices = (t1?.loadGeometry() ?? []).flat();
    const near = vertices.some((p) => Math.hypot(p.x - (at[0] as number), p.y - (at[1] as number)) <= 1);
    expect(near).toBe(true);
    // Every vertex stays inside the buffered square.
    for (const f of lines)
      for (const p of f.loadGeometry().flat()) {
        expect(p.x).toBeGreaterThanOrEqual(-BUFFER);
        expect(p.x).toBeLessThanOrEqual(EXTENT + BUFFER);
        expect(p.y).toBeGreaterThanOrEqual(-BUFFER);
        expect(p.y).toBeLessThanOrEqual(EXTENT + BUFFER);
      }
  });

  it("draws the whole network in one z8 tile, each line once, thinned as the zoom falls", () => {
    const count = (z: number) => {
      const lines = features(decode(tileOf(CENTRAL[0], CENTRAL[1], z)), "lines");
      return { lines, vertices: lines.reduce((s, f) => s + f.loadGeometry().flat().length, 0) };
    };
    const z8 = count(8);
    const names = z8.lines.map((f) => String(f.properties.line)).sort();
    expect(names).toEqual(["L1", "L2", "L3", "L4", "M1", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"]);
    // The pack holds 393 vertices, all kept at z8 (stations lie tens of units apart there); at z2 a unit is ~2.4 km.
    expect(z8.vertices).toBe(393);
    expect(count(2).vertices).toBeLessThan(z8.vertices / 2);
  });

  it("has station points with their name, mode and lines where lots are drawn (z10 up), none below", () => {
    const tile = tileOf(CENTRAL[0], CENTRAL[1], 14);
    const stations = features(decode(tile), "stations");
    const central = stations.find((f) => f.properties.name === "Central" && f.properties.mode === "Trains");
    expect(central?.type).toBe(1);
    expect(String(central?.properties.lines).split(" ")).toEqual(expect.arrayContaining(["T1", "T8", "M1"]));
    expect(features(decode(tileOf(CENTRAL[0], CENTRAL[1], 10)), "stations").length).toBeGreaterThan(20);
    expect(features(decode(tileOf(CENTRAL[0], CENTRAL[1], 9)), "stations")).toEqual([]);
  });
});
