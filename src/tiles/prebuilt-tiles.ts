// Tiles a v2 lots pack stores whole: those the reader could not serve from the pages under them within a tile's bound.
import { MAX_PAGES_PER_REQUEST, refuseDamaged } from "../packs/request-pages.ts";
import { crc32 } from "../packs/crc32.ts";
import {
  chargedView,
  forgetRoot,
  MemorySource,
  PageCache,
  PagedPack,
  ReadBudget,
  type Snapshot,
  type StoredTilesMeta,
  headWithTiles,
  headLength,
} from "../packs/paged/index.ts";
import { layerMinZoom, TILE_MAX_ZOOM } from "./layers.ts";
import { BUFFER, type TileCoord, tileBBox, tileOf } from "./math.ts";
import { pagedLotsTile } from "./paged-lots.ts";

// A lots tile asks for its pages in at most this many range requests (the reads between them read through).
export const TILE_MAX_READS = 2;
// ... reading through at most this many bytes between the pages a z15 or z16 tile needs (a z14 tile's pages span
// four times the area, and it is asked for less): a tile whose pages lie further apart is stored whole.
export const TILE_MAX_GAP_BYTES = 2 * 1024 * 1024;

/**
 * Whether the pages under the tile are at most MAX_PAGES_PER_REQUEST, read in at most TILE_MAX_READS requests and,
 * from z15, with at most TILE_MAX_GAP_BYTES read through between them.
 */
export function tileFits(pack: PagedPack, s: Snapshot, tile: TileCoord): boolean {
  const budget = new ReadBudget({ pages: MAX_PAGES_PER_REQUEST, ranges: TILE_MAX_READS });
  const plan = pack.planPages(s, pack.pagesInBox(s, tileBBox(tile, BUFFER)), budget);
  if (plan.over !== null) return false;
  return tile.z < 15 || plan.spanBytes - plan.cost.bytes <= TILE_MAX_GAP_BYTES;
}

/** Calls `visit` once for every tile at zoom z whose buffered box may meet a page's box (the tiles next to each too). */
export function forEachTileOverPages(s: Snapshot, z: number, visit: (tile: TileCoord) => void): void {
  const { pageBoxes: b, pageCount } = s.root;
  const n = 2 ** z;
  const seen = new Set<number>();
  for (let p = 0; p < pageCount; p++) {
    const nw = tileOf(b[4 * p] as number, b[4 * p + 3] as number, z);
    const se = tileOf(b[4 * p + 2] as number, b[4 * p + 1] as number, z);
    // A tile's buffer reaches less than a tile past its edge: the tiles next to the box may meet it too.
    for (let y = Math.max(0, nw.y - 1); y <= Math.min(n - 1, se.y + 1); y++) {
      for (let x = Math.max(0, nw.x - 1); x <= Math.min(n - 1, se.x + 1); x++) {
        const key = y * n + x;
        if (seen.has(key)) continue;
        seen.add(key);
        visit({ z, x, y });
      }
    }
  }
}

/** Every lots tile (z14 to z16) meeting a page's box that does not fit, by zoom, row and column. */
export function tilesToStore(pack: PagedPack, s: Snapshot): TileCoord[] {
  const { pageCount } = s.root;
  // Every plan fits when all pages are one read and no more than a request may hold.
  const pageBytes = pack.measure(
    s,
    Array.from({ length: pageCount }, (_, no) => no),
  ).bytes;
  if (pageCount <= MAX_PAGES_PER_REQUEST && pageBytes <= Math.min(pack.readBytesLimit, TILE_MAX_GAP_BYTES)) return [];
  const out: TileCoord[] = [];
  for (let z = layerMinZoom("parcels"); z <= TILE_MAX_ZOOM; z++) {
    forEachTileOverPages(s, z, (t) => {
      if (!tileFits(pack, s, t)) out.push(t);
    });
  }
  return out.sort((a, b) => a.z - b.z || a.y - b.y || a.x - b.x);
}

/** The lots tile cut from every page under it, however many reads that takes (the builder's cut of a stored tile). */
export async function cutFromPages(pack: PagedPack, tile: TileCoord): Promise<Uint8Array | null> {
  const set = await pack.pagesForBox(tileBBox(tile, BUFFER));
  refuseDamaged(set.refused);
  return pagedLotsTile(
    set.pages.map((page) => chargedView(pack, set.snapshot, page)),
    tile,
  );
}

// The page cache a build's survey cuts stored tiles with: a tile's pages are held by its cut whatever the budget.
export const STORE_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Cuts the tiles of the pack to store whole, handing each one's bytes to `emit` in list order (so a builder need
 * not hold them), and returns the root's list of them; null when every tile fits.
 */
export async function storeTiles(
  pack: PagedPack,
  emit: (tile: Uint8Array) => void,
  pace?: () => Promise<void>,
): Promise<StoredTilesMeta | null> {
  const s = await pack.snapshot();
  const tiles = tilesToStore(pack, s);
  if (tiles.length === 0) return null;
  const meta: StoredTilesMeta = {
    maxReads: TILE_MAX_READS,
    maxReadBytes: pack.readBytesLimit,
    maxGapBytes: TILE_MAX_GAP_BYTES,
    maxPages: MAX_PAGES_PER_REQUEST,
    list: [],
  };
  for (const t of tiles) {
    await pace?.();
    const tile = (await cutFromPages(pack, t)) ?? new Uint8Array(0);
    meta.list.push([t.z, t.x, t.y, tile.length, tile.length === 0 ? 0 : crc32(tile)]);
    emit(tile);
  }
  return meta;
}

let builds = 0;

/**
 * A v2 lots pack (in memory) with the tiles it must store whole added (a list stored before replaced); the same
 * bytes when none must be. `maxReadBytes` is the serving reader's bound on one read (its default unless said).
 */
export async function withStoredTiles(
  bytes: Uint8Array,
  key: string,
  opts: { maxReadBytes?: number; pace?: () => Promise<void> } = {},
): Promise<Uint8Array> {
  const source = new MemorySource(`build:${key}:${++builds}`, bytes);
  try {
    const { pace, ...reader } = opts;
    const pack = new PagedPack(source, { cache: new PageCache(STORE_CACHE_BYTES), ...reader });
    const tiles: Uint8Array[] = [];
    const meta = await storeTiles(pack, (t) => tiles.push(t), pace);
    if (!meta) return bytes;
    const s = await pack.snapshot();
    const { head, keepStart, keepEnd } = headWithTiles(bytes.subarray(0, headLength(s)), s, meta);
    const out = new Uint8Array(head.length + (keepEnd - keepStart) + tiles.reduce((n, b) => n + b.length, 0));
    out.set(head, 0);
    out.set(bytes.subarray(keepStart, keepEnd), head.length);
    let at = head.length + keepEnd - keepStart;
    for (const b of tiles) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  } finally {
    forgetRoot(source.key);
  }
}
