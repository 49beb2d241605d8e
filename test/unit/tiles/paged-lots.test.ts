// A v2 tile's lots layer is cut and encoded in one pass (tiles/paged-lots.ts): over the demo converted to a v2 pack
// with small pages (tiles over up to five pages), every tile is byte for byte the merge of its pages' v1 cuts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { pagesFor } from "../../../src/packs/request-pages.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { pagePack } from "../../../src/packs/paged/page-pack.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { clipRing } from "../../../src/tiles/clip.ts";
import { tileLayers } from "../../../src/tiles/cut.ts";
import { BUFFER, type TileCoord, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import { mergeLayers } from "../../../src/tiles/merge.ts";
import { encodeTile } from "../../../src/tiles/mvt.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { pagedLotsTile } from "../../../src/tiles/paged-lots.ts";
import { makeLots, packOptions } from "../packs/paged/fixture.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import type { Position } from "../../../src/geo/types.ts";
import type { Pack } from "../../../src/packs/types.ts";

const pack = (name: string) => readPackBytes(readFileSync(new URL(`../../../packs/${name}`, import.meta.url)), name);

describe("a v2 tile's lots layer", () => {
  it("is byte for byte the merge of its pages' cuts for every demo tile at z14 to z16", async () => {
    const demo = pack("sydney-demo.pack");
    const bytes = await convertToLotsPack(demo, { context: [demo, pack("sydney-suburbs.pack")], pageBytes: 16 * 1024 });
    const v2 = new PagedPack(new MemorySource("public/demo@tiles.pack", bytes), { cache: new PageCache(2 ** 30) });
    const s = await v2.snapshot();
    const tiles = new Map<string, TileCoord>();
    for (const page of (await v2.pagesForBox(s.root.meta.bbox)).pages) {
      const lots = pagePack(s, page).layers.get("parcels");
      for (let i = 0; lots && i < lots.count; i++) {
        const v = lots.ringOffsets[lots.polyOffsets[lots.featureOffsets[i] as number] as number] as number;
        for (const z of [14, 15, 16]) {
          const t = tileOf(lots.coords[2 * v] as number, lots.coords[2 * v + 1] as number, z);
          // With its neighbours: tiles the lots only reach into, clipped at the buffer.
          for (const x of [t.x - 1, t.x, t.x + 1])
            for (const y of [t.y - 1, t.y, t.y + 1]) tiles.set(`${z}/${x}/${y}`, { z, x, y });
        }
      }
    }
    let multiPage = 0;
    let drawn = 0;
    for (const tile of tiles.values()) {
      const views = await pagesFor([v2], [{ box: tileBBox(tile, BUFFER) }]);
      const layers = mergeLayers(views.map((v) => tileLayers(v, tile)));
      const general = layers.length > 0 ? encodeTile(layers) : null;
      const fast = await pagedTile(v2, tile);
      const name = `${tile.z}/${tile.x}/${tile.y}`;
      if (general === null) expect(fast, name).toBeNull();
      else {
        expect(fast, name).not.toBeNull();
        expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(general)), name).toBe(true);
        drawn++;
      }
      if (general && views.length >= 3) multiPage++;
    }
    expect(drawn).toBeGreaterThan(60);
    expect(multiPage).toBeGreaterThan(10);
  }, 120_000);
});

describe("a v2 tile over a page whose box meets the tile but whose lots do not", () => {
  it("keeps the drawing page's feature numbers, as a cut of that page alone does", async () => {
    const open = async (key: string, lots: ReturnType<typeof makeLots>) => {
      const p = new PagedPack(new MemorySource(key, await encodePack(lots, packOptions())), { cache: new PageCache() });
      const s = await p.snapshot();
      return (await p.pagesForBox(s.root.meta.bbox)).pages.map((page) => pagePack(s, page));
    };
    const lots = makeLots(400, 3);
    const lot = lots[150] as (typeof lots)[number];
    const tile = tileOf(lot.centre[0], lot.centre[1], 16);
    const [w, s, e, n] = tileBBox(tile, BUFFER);
    // Two small lots at opposite corners outside the tile: their page's box covers the tile, neither lot meets it.
    const square = (x: number, y: number): Position[] => [
      [x, y],
      [x + 1e-4, y],
      [x + 1e-4, y + 1e-4],
      [x, y + 1e-4],
      [x, y],
    ];
    const corners = [square(w - 0.01, s - 0.01), square(e + 0.01, n + 0.01)].map((ring, k) => ({
      ...(lots[k] as (typeof lots)[number]),
      geometry: { type: "Polygon" as const, coordinates: [ring] },
    }));
    // One page of lots drawing in the tile, then the corners' page.
    const drawing = (await open("packs/a.gapk", lots)).find((v) => (tileLayers(v, tile)[0]?.features.length ?? 0) > 0);
    const views = [drawing as Pack, ...(await open("packs/b.gapk", corners))];
    const meeting = views.filter((v) => {
      const b = v.layers.get("parcels")?.bbox;
      return b !== undefined && b[0] <= e && b[2] >= w && b[1] <= n && b[3] >= s;
    });
    const layers = mergeLayers(views.map((v) => tileLayers(v, tile)));
    const cuts = views.map((v) => tileLayers(v, tile)[0]?.features.length ?? 0).filter((c) => c > 0);
    expect(meeting.length).toBeGreaterThan(cuts.length);
    expect(cuts).toHaveLength(1);
    const fast = pagedLotsTile(views, tile);
    expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(encodeTile(layers)))).toBe(true);
  });
});

// Sutherland-Hodgman as plainly written: every edge clips, a new array each time.
function reference(ring: number[], lo: number, hi: number): number[] {
  let out = ring;
  for (let edge = 0; edge < 4 && out.length >= 6; edge++) {
    const axis = edge < 2 ? 0 : 1;
    const bound = edge % 2 === 0 ? lo : hi;
    const inside = (v: number) => (edge % 2 === 0 ? v >= bound : v <= bound);
    const pts = out;
    out = [];
    const n = pts.length / 2;
    let px = pts[2 * n - 2] as number;
    let py = pts[2 * n - 1] as number;
    for (let i = 0; i < n; i++) {
      const cx = pts[2 * i] as number;
      const cy = pts[2 * i + 1] as number;
      const [pv, cv] = axis === 0 ? [px, cx] : [py, cy];
      if (inside(cv) !== inside(pv)) {
        const t = (bound - pv) / (cv - pv);
        out.push(axis === 0 ? bound : px + t * (cx - px), axis === 0 ? py + t * (cy - py) : bound);
      }
      if (inside(cv)) out.push(cx, cy);
      px = cx;
      py = cy;
    }
  }
  return out;
}

describe("clipRing", () => {
  it("gives exactly the points plain Sutherland-Hodgman gives, for rings inside, across and outside the square", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let crossing = 0;
    for (let k = 0; k < 2000; k++) {
      const n = 3 + Math.floor(rnd() * 12);
      const cx = -500 + rnd() * 5200;
      const cy = -500 + rnd() * 5200;
      const r = 10 + rnd() * 800;
      const ring: number[] = [];
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        ring.push(cx + r * (0.5 + rnd()) * Math.cos(a), cy + r * (0.5 + rnd()) * Math.sin(a));
      }
      const want = reference(ring, -64, 4160);
      const got = clipRing(Float64Array.from(ring), n, -64, 4160);
      expect(Array.from(got.points.subarray(0, 2 * got.count))).toEqual(want);
      if (want.length > 0 && want.length !== ring.length) crossing++;
    }
    expect(crossing).toBeGreaterThan(100);
  });
});
