// Adds to a built v2 lots pack file the tiles it must store whole (src/tiles/prebuilt-tiles.ts), rewriting it in place.
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { forgetRoot, headLength, headWithTiles, PageCache, PagedPack } from "../../src/packs/paged/index.ts";
import { STORE_CACHE_BYTES, storeTiles } from "../../src/tiles/prebuilt-tiles.ts";
import { FileSource } from "../bench/paged/file-source.ts";

export type StoredTilesReport = { tiles: number; bytes: number; seconds: number };

const COPY_CHUNK = 8 << 20;

// Appends bytes [from, to) of file descriptor `src` to `dst`.
function copyRange(src: number, dst: number, from: number, to: number, what: string): void {
  const buf = new Uint8Array(Math.min(COPY_CHUNK, Math.max(1, to - from)));
  for (let at = from; at < to; ) {
    const n = readSync(src, buf, 0, Math.min(buf.length, to - at), at);
    if (n === 0) throw new Error(`${what} ended at ${at}, before ${to}`);
    writeSync(dst, buf, 0, n);
    at += n;
  }
}

/**
 * Surveys every z14-z16 lots tile of the pack at `path` and stores whole those that need it (each tile written to a
 * scratch file as it is cut, so memory stays that of the page cache and one tile's pages); returns what it added.
 */
export async function storeTilesInFile(path: string): Promise<StoredTilesReport> {
  const t0 = performance.now();
  const scratch = `${path}.tiles-${process.pid}`;
  const tmp = `${path}.stored-${process.pid}`;
  const source = await FileSource.open(path, { key: `build:${path}` });
  const tilesFd = openSync(scratch, "w");
  let bytes = 0;
  try {
    let rewrite: ReturnType<typeof headWithTiles> | null = null;
    let count = 0;
    try {
      const pack = new PagedPack(source, { cache: new PageCache(STORE_CACHE_BYTES) });
      const meta = await storeTiles(pack, (tile) => {
        writeSync(tilesFd, tile);
        bytes += tile.length;
      });
      if (meta) {
        const s = await pack.snapshot();
        rewrite = headWithTiles((await source.getBytes(0, headLength(s))).data, s, meta);
        count = meta.list.length;
      }
    } finally {
      closeSync(tilesFd);
      await source.close();
      forgetRoot(source.key);
    }
    if (!rewrite) return { tiles: 0, bytes: 0, seconds: (performance.now() - t0) / 1000 };
    const from = openSync(path, "r");
    const tiles = openSync(scratch, "r");
    const to = openSync(tmp, "w");
    try {
      writeSync(to, rewrite.head);
      copyRange(from, to, rewrite.keepStart, rewrite.keepEnd, path);
      copyRange(tiles, to, 0, bytes, scratch);
    } finally {
      closeSync(to);
      closeSync(tiles);
      closeSync(from);
    }
    renameSync(tmp, path);
    return { tiles: count, bytes, seconds: (performance.now() - t0) / 1000 };
  } finally {
    rmSync(scratch, { force: true });
    rmSync(tmp, { force: true });
  }
}
