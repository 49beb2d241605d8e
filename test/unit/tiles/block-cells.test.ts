// Street blocks at z10 and z11 (tiles/block-cells.ts): dissolved into cells two pixels wide, each cell in the zone of
// the largest block over it, the cells of one zone dissolved into polygons, so a whole city's tile stays small.
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";
import type { BlockPage } from "../../../src/packs/paged/index.ts";
import { BLOCK_CELLS_MAX_ZOOM, blockCellsLayer } from "../../../src/tiles/block-cells.ts";
import { BUFFER, EXTENT, tileOf } from "../../../src/tiles/math.ts";
import { encodeTile } from "../../../src/tiles/mvt.ts";
import { blockPage } from "./block-page.ts";

const tile = tileOf(151, -33.8, 10);
const ZONES = ["R2", "E1", "R4"];
const CELL = 16;
const page = (blocks: Parameters<typeof blockPage>[1]) => blockPage(tile, blocks);

function draw(p: BlockPage) {
  const layer = new VectorTile(new PbfReader(encodeTile([blockCellsLayer([p], ZONES, tile)]))).layers.blocks;
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const f = layer.feature(i);
    return { zone: f.properties.zone, type: f.type, rings: f.loadGeometry().map((r) => r.map((p) => [p.x, p.y])) };
  });
}

const box = (ring: number[][]) => [
  Math.min(...ring.map((p) => p[0] as number)),
  Math.min(...ring.map((p) => p[1] as number)),
  Math.max(...ring.map((p) => p[0] as number)),
  Math.max(...ring.map((p) => p[1] as number)),
];
// Twice the signed area by the shoelace formula: positive is clockwise with y down, an exterior ring in MVT.
const signedArea2 = (ring: number[][]) =>
  ring.slice(0, -1).reduce((s, p, i) => {
    const q = ring[i + 1] as number[];
    return s + (p[0] as number) * (q[1] as number) - (q[0] as number) * (p[1] as number);
  }, 0);

// A ring's corners on the tile's edge are pushed into the buffer; brought back, its area counts cells.
const onTile = (ring: number[][]) => ring.map((p) => p.map((v) => Math.max(0, Math.min(EXTENT, v))));
/** How many cells a zone's polygons cover (exteriors less holes), on the tile. */
const cellsOf = (f: ReturnType<typeof draw>, zone: string) =>
  f
    .filter((x) => x.zone === zone)
    .flatMap((x) => x.rings)
    .reduce((n, r) => n + signedArea2(onTile(r)) / 2 / (CELL * CELL), 0);

describe("street blocks as cells at the lowest zooms", () => {
  it("stop at z11: from z12 every block is its own quad", () => {
    expect(BLOCK_CELLS_MAX_ZOOM).toBe(11);
  });

  it("draw a block spanning many cells as one rectangle over exactly the cells whose centres it holds", () => {
    const [f, ...rest] = draw(page([{ box: [160, 320, 480, 800], zone: 0 }]));
    expect(rest).toEqual([]);
    expect(f?.zone).toBe("R2");
    expect(f?.type).toBe(3);
    expect(f?.rings).toHaveLength(1);
    expect(box(f?.rings[0] ?? [])).toEqual([160, 320, 480, 800]);
    expect(signedArea2(f?.rings[0] ?? [])).toBeGreaterThan(0);
  });

  it("keep a block smaller than a cell, in its own zone, as the cell its centre falls in", () => {
    const [f] = draw(page([{ box: [1000 + 3, 2000 + 4, 1000 + 9, 2000 + 10], zone: 1 }]));
    expect(f?.zone).toBe("E1");
    expect(box(f?.rings[0] ?? [])).toEqual([1000 - (1000 % CELL), 2000, 1008 - (1000 % CELL) + 8, 2016]);
  });

  it("give a cell under two blocks the larger block's zone", () => {
    const big = { box: [0, 0, 640, 640] as [number, number, number, number], zone: 0 };
    const small = { box: [100, 100, 110, 110] as [number, number, number, number], zone: 1 };
    expect(draw(page([small, big])).map((f) => f.zone)).toEqual(["R2"]);
    expect(draw(page([big, small])).map((f) => f.zone)).toEqual(["R2"]);
  });

  it("merge each zone's cells into one feature of polygons that cover them and nothing else", () => {
    // Two zones side by side and a third below them, abutting.
    const f = draw(
      page([
        { box: [0, 0, 1000, 2000], zone: 0 },
        { box: [1000, 0, 2000, 2000], zone: 1 },
        { box: [0, 2000, 2000, 3000], zone: 2 },
      ]),
    );
    expect(f.map((x) => x.zone).sort()).toEqual(["E1", "R2", "R4"]);
    // R2 holds the cells whose centres lie in [0, 1000) by [0, 2000): columns 0-61 and rows 0-124; column 62, centred
    // on the boundary, is E1's.
    expect(cellsOf(f, "R2")).toBe(62 * 125);
    expect(cellsOf(f, "E1")).toBe(63 * 125);
    expect(cellsOf(f, "R4")).toBe(125 * 62);
    for (const x of f) expect(x.rings).toHaveLength(1);
  });

  it("draw a zone's connected cells as one ring, whatever their rows' lengths (rectangles drew one a row)", () => {
    // A staircase of R2 blocks, each row of cells a different length: rectangles would have drawn one a row.
    const stairs = Array.from({ length: 8 }, (_, i) => ({
      box: [300, 300 + i * 64, 900 + i * 48, 300 + (i + 1) * 64] as [number, number, number, number],
      zone: 0,
    }));
    const [f, ...rest] = draw(page(stairs));
    expect(rest).toEqual([]);
    expect(f?.rings).toHaveLength(1);
  });

  it("push a zone reaching the tile's edge into the buffer, so the tile's clip and not a stroke draws that edge", () => {
    const [f] = draw(page([{ box: [0, 0, 640, 640], zone: 0 }]));
    expect(box(f?.rings[0] ?? [])).toEqual([-BUFFER, -BUFFER, 640, 640]);
  });

  it("close a street a cell wide between blocks with their zone, and leave a park wider than that empty", () => {
    // A street of half a cell between two R2 blocks: the column centred on it takes R2.
    const street = draw(
      page([
        { box: [0, 0, 1000, 2000], zone: 0 },
        { box: [1008, 0, 2000, 2000], zone: 0 },
      ]),
    );
    expect(cellsOf(street, "R2")).toBe(125 * 125);
    // A park of 100 units (six cells) between them stays a gap.
    const park = draw(
      page([
        { box: [0, 0, 1000, 2000], zone: 0 },
        { box: [1100, 0, 2100, 2000], zone: 0 },
      ]),
    );
    expect(cellsOf(park, "R2")).toBe((62 + 62) * 125);
  });

  it("draw nothing outside the tile", () => {
    expect(draw(page([{ box: [EXTENT + 100, 0, EXTENT + 900, 800], zone: 0 }]))).toEqual([]);
  });
});
