// A pack without street blocks (an NSW import, an organisation's upload) below the lots' zoom (tiles/overview.ts): its
// overview's cells dissolved per zone, so a z10-13 tile draws one outline a connected zone patch, not one a lot or a
// run of cells, whose seams striped the map (issue 49).
import { readFileSync } from "node:fs";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";
import { CELLS_PER_DEGREE, type OverviewPage } from "../../../src/packs/paged/index.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { CELL, type CellMask, GRID } from "../../../src/tiles/block-walk.ts";
import { BUFFER, EXTENT, type TileCoord, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import { overviewLayer } from "../../../src/tiles/overview.ts";
import { encodeTile } from "../../../src/tiles/mvt.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { makeLots, packOptions } from "../packs/paged/fixture.ts";

const imported = new Uint8Array(
  Buffer.from(readFileSync("test/fixtures/nsw/imported-hunters-hill.pack.b64", "utf8").trim(), "base64"),
);
// 2,000 lots in 100 plans of one random zone each, built as an upload is: no blocks.
const uploaded = await encodePack(makeLots(2000, 3), packOptions());

function open(bytes: Uint8Array): PagedPack {
  clearRootMemo();
  return new PagedPack(new MemorySource(`public/patches-${Math.random()}.pack`, bytes), { cache: new PageCache() });
}

// Twice a ring's signed area: positive is clockwise with y down, an exterior ring in MVT.
const area2 = (ring: { x: number; y: number }[]) =>
  ring.slice(0, -1).reduce((s, p, i) => s + p.x * (ring[i + 1]?.y ?? 0) - (ring[i + 1]?.x ?? 0) * p.y, 0);

/** Each zone's exterior rings in a tile's zoning layer, and its total area (exteriors less holes, tile units). */
function outlines(bytes: Uint8Array | null): Map<string, { exteriors: number; area: number }> {
  const layer = bytes ? new VectorTile(new PbfReader(bytes)).layers.zoning : undefined;
  const out = new Map<string, { exteriors: number; area: number }>();
  for (let i = 0; i < (layer?.length ?? 0); i++) {
    const f = layer?.feature(i);
    const zone = String(f?.properties.zone);
    const entry = out.get(zone) ?? { exteriors: 0, area: 0 };
    for (const ring of f?.loadGeometry() ?? []) {
      const a = area2(ring);
      if (a > 0) entry.exteriors++;
      entry.area += a / 2;
    }
    out.set(zone, entry);
  }
  return out;
}

/** Each zone's connected patches (4-neighbour) of the overview's cells meeting the tile, counted apart from the code. */
function patches(pages: readonly OverviewPage[], zones: readonly string[], tile: TileCoord): Map<string, number> {
  const [w, s, e, n] = tileBBox(tile, BUFFER).map((v) => v * CELLS_PER_DEGREE) as [number, number, number, number];
  const cells = new Map<string, string>();
  for (const p of pages)
    for (let i = 0; i < p.ns.length; i++)
      for (let k = 0; k < (p.ns[i] as number); k++) {
        const [x, y] = [(p.xs[i] as number) + k, p.ys[i] as number];
        if (x + 1 > w && x < e && y + 1 > s && y < n) cells.set(`${x},${y}`, zones[p.zones[i] as number] as string);
      }
  const out = new Map<string, number>();
  const seen = new Set<string>();
  for (const [start, zone] of cells) {
    if (seen.has(start)) continue;
    out.set(zone, (out.get(zone) ?? 0) + 1);
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const [x, y] = (stack.pop() as string).split(",").map(Number) as [number, number];
      for (const next of [`${x + 1},${y}`, `${x - 1},${y}`, `${x},${y + 1}`, `${x},${y - 1}`])
        if (cells.get(next) === zone && !seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
    }
  }
  return out;
}

/** The tile at zoom z over the middle of the pack's land, with the overview pages it reads and its drawn outlines. */
async function middleTile(pack: PagedPack, z: number) {
  const [w, s, e, n] = (await pack.snapshot()).root.meta.bbox;
  const tile = tileOf((w + e) / 2, (s + n) / 2, z);
  const { pages, zones } = await pack.overviewFor(tileBBox(tile, BUFFER));
  return { tile, pages, zones, drawn: outlines(await pagedTile(pack, tile)) };
}

const exteriorsOf = (o: Map<string, { exteriors: number }>) =>
  new Map([...o].map(([zone, { exteriors }]) => [zone, exteriors]));

describe("the overview of a pack without street blocks, below the lots' zoom", () => {
  it("draws an imported pack's z10-13 tiles with one outline a connected zone patch, not one a lot or a run", async () => {
    const pack = open(imported);
    for (const z of [10, 11, 12, 13]) {
      const { tile, pages, zones, drawn: outlined } = await middleTile(pack, z);
      const drawn = exteriorsOf(outlined);
      // Hunters Hill's 111 lots fill 12 cells in 5 runs: two runs of R2 one above the other make one patch.
      expect(Object.fromEntries(drawn), `z${z}`).toEqual({ R2: 1, R3: 1, E1: 1, RE1: 1 });
      expect(drawn, `z${z}`).toEqual(patches(pages, zones, tile));
      expect(pages.reduce((k, p) => k + p.ns.length, 0)).toBe(5);
    }
  });

  it("draws an uploaded pack's many patches each as one outline, covering the area of exactly its cells", async () => {
    const pack = open(uploaded);
    for (const z of [10, 11, 12, 13]) {
      const { tile, pages, zones, drawn } = await middleTile(pack, z);
      const expected = patches(pages, zones, tile);
      expect(exteriorsOf(drawn), `z${z}`).toEqual(expected);
      const runs = pages.reduce((k, p) => k + p.ns.length, 0);
      expect(
        [...expected.values()].reduce((a, b) => a + b, 0),
        `z${z}: fewer outlines than runs`,
      ).toBeLessThan(runs);
    }
    // At z13 every cell is on the tile: each zone's area is its cells' (about 45 by 54 tile units each at z13).
    const { pages, zones, drawn } = await middleTile(pack, 13);
    const cellArea = new Map<string, number>();
    const scale = 2 ** 13 * EXTENT;
    const my = (lat: number) => (Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)) * scale;
    for (const p of pages)
      for (let i = 0; i < p.ns.length; i++) {
        const zone = zones[p.zones[i] as number] as string;
        const y = p.ys[i] as number;
        const a = ((p.ns[i] as number) / CELLS_PER_DEGREE / 360) * scale * (my((y + 1) / 1024) - my(y / 1024));
        cellArea.set(zone, (cellArea.get(zone) ?? 0) + a);
      }
    for (const [zone, { area }] of drawn)
      expect(Math.abs(area / (cellArea.get(zone) ?? 0) - 1), zone).toBeLessThan(0.02);
  });

  it("is drawn from z10 and not at z9", async () => {
    const pack = open(uploaded);
    const [w, s] = (await pack.snapshot()).root.meta.bbox;
    expect(outlines(await pagedTile(pack, tileOf(w, s, 10))).size).toBeGreaterThan(0);
    expect(await pagedTile(pack, tileOf(w, s, 9))).toBeNull();
  });

  it("leaves out the cells under a higher pack's land and draws the rest", async () => {
    const { tile, pages, zones } = await middleTile(open(uploaded), 12);
    const xsOf = (mask: CellMask | null) => {
      const tiled = encodeTile([overviewLayer(pages, zones, tile, mask)]);
      const layer = new VectorTile(new PbfReader(tiled)).layers.zoning;
      return Array.from({ length: layer?.length ?? 0 }, (_, i) => layer?.feature(i).loadGeometry().flat() ?? [])
        .flat()
        .map((p) => p.x);
    };
    const alone = xsOf(null);
    // The higher pack covers the tile's cells west of the middle of the pack's land.
    const mid = Math.round((Math.min(...alone) + Math.max(...alone)) / 2 / CELL);
    const mask: CellMask = new Uint8Array(GRID * GRID);
    for (let c = 0; c < mid; c++) for (let r = 0; r < GRID; r++) mask[r * GRID + c] = 1;
    const under = xsOf(mask);
    expect(Math.max(...under)).toBe(Math.max(...alone));
    // A cell is left out when its centre is hidden: none drawn reaches half a cell (23 units at z12) into it.
    expect(Math.min(...alone)).toBeLessThan(mid * CELL - 23);
    expect(Math.min(...under)).toBeGreaterThan(mid * CELL - 23);
  });
});
