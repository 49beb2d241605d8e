// Street blocks below the lots' zoom (tiles/blocks.ts): a lots pack built with its blocks draws them from z10 to z13 (as
// cells to z11, tiles/block-cells.ts; one quad each in its zone from z12), lots from z14 as before; a pack without
// blocks keeps its overview of cells, from the same zoom (tiles/overview.ts).
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";
import { PageRefusedError } from "../../../src/packs/paged/errors.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/schema.ts";
import { type TileCoord, tileOf } from "../../../src/tiles/math.ts";
import { pagedTile, pagedTileJson } from "../../../src/tiles/paged.ts";
import { makeLots, packOptions } from "../packs/paged/fixture.ts";

const lots = makeLots(2000, 3);

// Each deposited plan of the fixture is a block: its lots' box as a quad (1e-7 degree), in its lots' zone.
function fixtureBlocks(): { quads: Int32Array; zones: string[] } {
  const boxes = new Map<string, { box: number[]; zone: string }>();
  for (const l of lots) {
    const plan = l.id.split("//")[1] as string;
    const b = boxes.get(plan) ?? { box: [Infinity, Infinity, -Infinity, -Infinity], zone: String(l.values[1]) };
    for (const [x, y] of l.geometry.coordinates[0] as number[][]) {
      b.box = [
        Math.min(b.box[0] as number, x as number),
        Math.min(b.box[1] as number, y as number),
        Math.max(b.box[2] as number, x as number),
        Math.max(b.box[3] as number, y as number),
      ];
    }
    boxes.set(plan, b);
  }
  const q = (v: number) => Math.round(v * UNITS_PER_DEGREE);
  const list = [...boxes.values()];
  const quads = Int32Array.from(
    list.flatMap(({ box: [w, s, e, n] }) => [w, s, e, s, e, n, w, n].map((v) => q(v as number))),
  );
  return { quads, zones: list.map((b) => b.zone) };
}

const blocks = fixtureBlocks();
const withBlocks = await encodePack(lots, { ...packOptions(), blocks });
const withCells = await encodePack(lots, packOptions());

function reader(bytes: Uint8Array) {
  clearRootMemo();
  const source = new MemorySource(`public/blocks-${Math.random()}.pack`, bytes);
  return { source, pack: new PagedPack(source, { cache: new PageCache() }) };
}

async function layersOf(pack: PagedPack, tile: TileCoord): Promise<VectorTile | null> {
  const bytes = await pagedTile(pack, tile);
  return bytes ? new VectorTile(new PbfReader(bytes)) : null;
}

const [lon, lat] = lots[0]?.centre ?? [0, 0];

describe("street blocks below the lots' zoom", () => {
  it("are drawn from z10 to z13 (as cells to z11, one quad a block from z12), each with its zone, not at z9", async () => {
    const { pack } = reader(withBlocks);
    for (const z of [10, 11, 12, 13]) {
      const vt = await layersOf(pack, tileOf(lon, lat, z));
      const layer = vt?.layers.blocks;
      expect(layer, `z${z}`).toBeDefined();
      expect(vt?.layers.zoning).toBeUndefined();
      const zones = new Set(Array.from({ length: layer?.length ?? 0 }, (_, i) => layer?.feature(i).properties.zone));
      expect([...zones].every((zone) => blocks.zones.includes(String(zone)))).toBe(true);
      if (z === 13) {
        // The fixture's blocks lie within one z13 tile or two: every block there is one polygon of four corners.
        const f = layer?.feature(0);
        expect(f?.type).toBe(3);
        expect(f?.loadGeometry()[0]?.length).toBe(5);
      }
    }
    const all = await pack.overviewFor([-180, -90, 180, 90]);
    expect(all.blocks.reduce((n, p) => n + p.count, 0)).toBe(blocks.zones.length);
    expect(await pagedTile(pack, tileOf(lon, lat, 9))).toBeNull();
  });

  it("give way to the lots at z14: their tile is the lots' alone", async () => {
    const { pack } = reader(withBlocks);
    const vt = await layersOf(pack, tileOf(lon, lat, 14));
    expect(vt?.layers.parcels?.length).toBeGreaterThan(0);
    expect(vt?.layers.blocks).toBeUndefined();
  });

  it("are named in TileJSON as the blocks layer from z10 to z13; a pack without them keeps its zoning cells from z10", async () => {
    const a = reader(withBlocks);
    const tj = pagedTileJson(await a.pack.snapshot(), "https://x.test");
    const layer = tj.vector_layers.find((l) => l.id === "blocks");
    expect([layer?.minzoom, layer?.maxzoom, tj.minzoom]).toEqual([10, 13, 10]);
    expect(layer?.fields).toHaveProperty("zone");
    const b = reader(withCells);
    const cells = pagedTileJson(await b.pack.snapshot(), "https://x.test");
    expect(cells.vector_layers.map((l) => [l.id, l.minzoom])).toEqual([
      ["parcels", 14],
      ["zoning", 10],
    ]);
    expect(cells.minzoom).toBe(10);
    expect(await pagedTile(b.pack, tileOf(lon, lat, 9))).toBeNull();
    for (const z of [10, 12]) {
      const vt = await layersOf(b.pack, tileOf(lon, lat, z));
      expect(vt?.layers.zoning?.length, `z${z}`).toBeGreaterThan(0);
      expect(vt?.layers.blocks).toBeUndefined();
    }
  });

  it("refuse a damaged block page by name, as any damaged page is", async () => {
    const { pack } = reader(withBlocks);
    const s = await pack.snapshot();
    const at = s.root.overviewOffsets[0] as number;
    const bad = withBlocks.slice();
    bad[at + 40] = (bad[at + 40] as number) ^ 0xff;
    const damaged = reader(bad);
    await expect(pagedTile(damaged.pack, tileOf(lon, lat, 12))).rejects.toThrow(PageRefusedError);
    await expect(pagedTile(damaged.pack, tileOf(lon, lat, 12))).rejects.toThrow(/block page 0 refused: checksum/);
  });
});
