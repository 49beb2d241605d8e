// Tiles a v2 pack stores whole (tiles/prebuilt-tiles.ts): a tile whose pages the reader cannot fetch in 2 requests is
// cut at build time and served in one, byte for byte the tile its pages give. Over the demo with 4 KiB pages and
// reads capped at 24 KiB, many tiles' pages lie too far apart on the curve, as rare tiles do at Greater Sydney's size.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { UnavailableError } from "../../../src/errors.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack, type Snapshot } from "../../../src/packs/paged/reader.ts";
import { tileKey } from "../../../src/packs/paged/root.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { type TileCoord, tileOf } from "../../../src/tiles/math.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { storeTilesInFile } from "../../../scripts/pack/stored-tiles.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { makeLots, packOptions } from "../packs/paged/fixture.ts";
import { cutFromPages, TILE_MAX_READS, tileFits, withStoredTiles } from "../../../src/tiles/prebuilt-tiles.ts";

const pack = (name: string) => readPackBytes(readFileSync(new URL(`../../../packs/${name}`, import.meta.url)), name);
const READ_BYTES = 24 * 1024;

let plain: Uint8Array;
let stored: Uint8Array;
let key = 0;

// A reader as a cold isolate's, after its root: the requests a tile makes are counted from zero.
async function cold(bytes: Uint8Array) {
  const source = new MemorySource(`public/demo@stored-${++key}.pack`, bytes);
  const reader = new PagedPack(source, { cache: new PageCache(2 ** 30), maxReadBytes: READ_BYTES });
  const s = await reader.snapshot();
  source.resetCounts();
  return { source, reader, s };
}

// Every lots tile at z14 to z16 meeting a page's box, with the tiles its buffer reaches into.
function tilesOver(s: Snapshot): TileCoord[] {
  const out: TileCoord[] = [];
  const b = s.root.pageBoxes;
  const seen = new Set<string>();
  for (const z of [14, 15, 16]) {
    for (let p = 0; p < s.root.pageCount; p++) {
      const nw = tileOf(b[4 * p] as number, b[4 * p + 3] as number, z);
      const se = tileOf(b[4 * p + 2] as number, b[4 * p + 1] as number, z);
      for (let y = nw.y - 1; y <= se.y + 1; y++)
        for (let x = nw.x - 1; x <= se.x + 1; x++) {
          const k = `${z}/${x}/${y}`;
          if (!seen.has(k)) out.push({ z, x, y });
          seen.add(k);
        }
    }
  }
  return out;
}

beforeAll(async () => {
  const demo = pack("sydney-demo.pack");
  plain = await convertToLotsPack(demo, { context: [demo, pack("sydney-suburbs.pack")], pageBytes: 4 * 1024 });
  stored = await withStoredTiles(plain, "demo", { maxReadBytes: READ_BYTES });
});

describe("tiles a v2 pack stores whole", () => {
  it("without them some demo tiles need more than 2 requests; with them every z14-z16 tile needs at most 2", async () => {
    const before = await cold(plain);
    const over = tilesOver(before.s).filter((t) => !tileFits(before.reader, before.s, t));
    expect(over.length).toBeGreaterThan(0);
    let most = 0;
    for (const t of tilesOver((await cold(stored)).s)) {
      const { source, reader } = await cold(stored);
      await pagedTile(reader, t);
      most = Math.max(most, source.reads);
    }
    expect(most).toBeLessThanOrEqual(TILE_MAX_READS);
    // The tiles over 2 before are served in one request now.
    for (const t of over.slice(0, 20)) {
      const { source, reader } = await cold(stored);
      await pagedTile(reader, t);
      expect(source.reads, `${t.z}/${t.x}/${t.y}`).toBe(1);
    }
  });

  it("after the root's time to live a tile is still at most 2 requests, stored or read from its pages", async () => {
    let clock = 0;
    const source = new MemorySource(`public/demo@stored-ttl-${++key}.pack`, stored);
    const opts = { maxReadBytes: READ_BYTES, rootTtlMs: 1000, now: () => clock };
    const s = await new PagedPack(source, { cache: new PageCache(2 ** 30), ...opts }).snapshot();
    const list = s.root.meta.tiles?.list ?? [];
    const [z, x, y] = list.find((e) => (e[3] as number) > 0) as number[];
    const fromPages = tilesOver(s).filter((t) => !s.root.storedTiles.has(tileKey(t.z, t.x, t.y)));
    let most = 0;
    for (const t of [{ z, x, y } as TileCoord, ...fromPages.slice(0, 40)]) {
      clock += 2000;
      source.resetCounts();
      await pagedTile(new PagedPack(source, { cache: new PageCache(2 ** 30), ...opts }), t);
      most = Math.max(most, source.reads);
    }
    expect(most).toBeLessThanOrEqual(TILE_MAX_READS);
  });

  it("a stored tile is byte for byte the tile cut from all its pages, and the pages are unchanged", async () => {
    const { reader, s } = await cold(stored);
    const list = s.root.meta.tiles?.list ?? [];
    expect(list.length).toBeGreaterThan(0);
    const base = await cold(plain);
    let drawn = 0;
    for (const [z, x, y] of list) {
      const served = await pagedTile(reader, { z, x, y });
      const cut = await cutFromPages(base.reader, { z, x, y });
      expect(served === null ? null : Buffer.from(served).toString("hex"), `${z}/${x}/${y}`).toBe(
        cut === null ? null : Buffer.from(cut).toString("hex"),
      );
      if (cut) drawn++;
    }
    expect(drawn).toBeGreaterThan(0);
    // The pages, lot-id index and overview pages keep their bytes; only the head and the stored tiles change.
    const body = (x: { s: Snapshot }, bytes: Uint8Array) =>
      Buffer.from(bytes.subarray(x.s.header.dataStart, x.s.root.tileOffsets[0] as number));
    expect(body(base, plain).equals(body({ s }, stored))).toBe(true);
  });

  it("a damaged stored tile is refused as a 503 naming it; other tiles of the pack still serve", async () => {
    const damaged = stored.slice();
    const { s } = await cold(stored);
    const list = s.root.meta.tiles?.list ?? [];
    const i = list.findIndex((e) => (e[3] as number) > 0);
    const [z, x, y] = list[i] as number[];
    const at = (s.root.tileOffsets[i] as number) + 3;
    damaged[at] = (damaged[at] as number) ^ 0xff;
    const { reader } = await cold(damaged);
    const err = await pagedTile(reader, { z, x, y } as TileCoord).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toContain(`stored tile ${z}/${x}/${y} is damaged`);
    const other = list.find((e, k) => k !== i && (e[3] as number) > 0) as number[];
    const fine = await pagedTile(reader, { z: other[0], x: other[1], y: other[2] } as TileCoord);
    expect(fine?.length).toBe(other[3]);
  });

  it("storing again gives the same bytes; a pack whose every tile fits is left as it was", async () => {
    expect(
      Buffer.from(await withStoredTiles(stored, "again", { maxReadBytes: READ_BYTES })).equals(Buffer.from(stored)),
    ).toBe(true);
    const demo = pack("sydney-demo.pack");
    const small = await convertToLotsPack(demo, { context: [demo] });
    expect(await withStoredTiles(small, "small")).toBe(small);
    clearRootMemo();
  });

  it("a pack file gets, tile for tile, the stored tiles the same pack in memory gets", async () => {
    // 20,000 lots in 2 KiB pages: z14 tiles over more than 64 pages.
    const plainLots = await encodePack(makeLots(20_000), packOptions(2 * 1024));
    const inMemory = await withStoredTiles(plainLots, "fixture");
    expect(inMemory.length).toBeGreaterThan(plainLots.length);
    const dir = mkdtempSync(join(tmpdir(), "stored-tiles-"));
    try {
      const path = join(dir, "lots.pack");
      writeFileSync(path, plainLots);
      const report = await storeTilesInFile(path);
      expect(report.tiles).toBeGreaterThan(0);
      expect(readFileSync(path).equals(Buffer.from(inMemory))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
