// Below z14, a pack's overview is not drawn where a higher pack's overview is (docs/design.md section 10): the cells
// of a tile hidden by the higher pack's land drop this pack's cells (z10, z11) and every block reaching them (z12, z13).
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";
import type { PagedPack } from "../../../src/packs/paged/index.ts";
import { blockCellsLayer } from "../../../src/tiles/block-cells.ts";
import { CELL, type CellMask, GRID } from "../../../src/tiles/block-walk.ts";
import { blocksLayer } from "../../../src/tiles/blocks.ts";
import { type TileCoord, tileOf } from "../../../src/tiles/math.ts";
import { encodeTile, type TileLayer } from "../../../src/tiles/mvt.ts";
import { overviewCover } from "../../../src/tiles/overview-cover.ts";
import { blockPage } from "./block-page.ts";

const ZONES = ["R2", "E1"];

/** A mask hiding the cells whose centres lie in the box [x0, y0, x1, y1] (tile units). */
function maskOf([x0, y0, x1, y1]: [number, number, number, number]): CellMask {
  const mask = new Uint8Array(GRID * GRID);
  for (let r = 0; r < GRID; r++)
    for (let c = 0; c < GRID; c++) {
      const [x, y] = [(c + 0.5) * CELL, (r + 0.5) * CELL];
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) mask[r * GRID + c] = 1;
    }
  return mask;
}

/** Each drawn feature's zone and the box of its rings (tile units). */
function drawn(layer: TileLayer) {
  const vt = new VectorTile(new PbfReader(encodeTile([layer]))).layers[layer.name];
  return Array.from({ length: vt?.length ?? 0 }, (_, i) => {
    const f = vt?.feature(i);
    const pts = (f?.loadGeometry() ?? []).flat();
    return {
      zone: String(f?.properties.zone),
      box: [
        Math.min(...pts.map((p) => p.x)),
        Math.min(...pts.map((p) => p.y)),
        Math.max(...pts.map((p) => p.x)),
        Math.max(...pts.map((p) => p.y)),
      ],
    };
  });
}

// Two blocks side by side: an R2 block on the west, an E1 block on the east.
const BLOCKS = [
  { box: [400, 400, 1600, 1600] as [number, number, number, number], zone: 0 },
  { box: [2000, 400, 3200, 1600] as [number, number, number, number], zone: 1 },
];

describe("a pack's overview under a higher pack's land", () => {
  it("at z10, the cells under it are left out and the others drawn as before", () => {
    const tile = tileOf(151, -33.8, 10);
    const page = blockPage(tile, BLOCKS);
    const alone = drawn(blockCellsLayer([page], ZONES, tile));
    expect(alone.map((f) => f.zone).sort()).toEqual(["E1", "R2"]);
    // The higher pack's land covers the east block and the street beside it.
    const hidden = drawn(blockCellsLayer([page], ZONES, tile, maskOf([1700, 0, 4096, 4096])));
    expect(hidden.map((f) => f.zone)).toEqual(["R2"]);
    expect(hidden[0]?.box).toEqual(alone.find((f) => f.zone === "R2")?.box);
  });

  it("at z12, a block reaching one hidden cell is left out whole; its neighbour is drawn", () => {
    const tile = tileOf(151, -33.8, 12);
    const page = blockPage(tile, BLOCKS);
    expect(drawn(blocksLayer([page], ZONES, tile)).length).toBe(2);
    // Only the east block's north-west corner is under the higher pack.
    const hidden = drawn(blocksLayer([page], ZONES, tile, maskOf([2000, 400, 2040, 440])));
    expect(hidden.map((f) => f.zone)).toEqual(["R2"]);
  });

  it("the cells hidden are those a higher pack's overview blocks reach, and none where it has none", async () => {
    const tile: TileCoord = tileOf(151, -33.8, 12);
    const higher = (blocks: typeof BLOCKS) =>
      ({
        overviewFor: async () => ({ pages: [], blocks: [blockPage(tile, blocks)], zones: ZONES, refused: [] }),
      }) as unknown as PagedPack;
    expect(await overviewCover([higher([])], tile)).toBeNull();
    const mask = await overviewCover([higher([BLOCKS[1] as (typeof BLOCKS)[0]])], tile);
    const cell = (x: number, y: number) => mask?.[Math.floor(y / CELL) * GRID + Math.floor(x / CELL)];
    expect(cell(2600, 1000)).toBe(1);
    expect(cell(1000, 1000)).toBe(0);
    const drawnUnder = drawn(blocksLayer([blockPage(tile, BLOCKS)], ZONES, tile, mask));
    expect(drawnUnder.map((f) => f.zone)).toEqual(["R2"]);
  });
});
