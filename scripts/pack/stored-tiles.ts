// Adds to a built v2 lots pack file the tiles it must store whole (src/tiles/stored.ts), rewriting it in place.
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { PageCache } from "../../src/packs/paged/page-cache.ts";
import { forgetRoot, PagedPack } from "../../src/packs/paged/reader.ts";
import { headWithTiles, storedTilesOf } from "../../src/tiles/stored.ts";
import { FileSource } from "../bench/paged/file-source.ts";

export type StoredTilesReport = { tiles: number; bytes: number; seconds: number };

/** Surveys every z14-z16 lots tile of the pack at `path` and stores whole those that need it; returns what it added. */
export async function storeTilesInFile(path: string): Promise<StoredTilesReport> {
  const t0 = performance.now();
  const source = await FileSource.open(path, { key: `build:${path}` });
  let stored: Awaited<ReturnType<typeof storedTilesOf>>;
  let rewrite: ReturnType<typeof headWithTiles> | null = null;
  try {
    const pack = new PagedPack(source, { cache: new PageCache() });
    stored = await storedTilesOf(pack);
    if (stored) {
      const s = await pack.snapshot();
      const head = (await source.getBytes(0, s.header.dataStart)).data;
      rewrite = headWithTiles(head, s, stored);
    }
  } finally {
    await source.close();
    forgetRoot(source.key);
  }
  if (!stored || !rewrite) return { tiles: 0, bytes: 0, seconds: (performance.now() - t0) / 1000 };
  const tmp = `${path}.tiles-${process.pid}`;
  const from = openSync(path, "r");
  const to = openSync(tmp, "w");
  try {
    try {
      writeSync(to, rewrite.head);
      const buf = new Uint8Array(8 << 20);
      for (let at = rewrite.keepStart; at < rewrite.keepEnd; ) {
        const n = readSync(from, buf, 0, Math.min(buf.length, rewrite.keepEnd - at), at);
        if (n === 0) throw new Error(`${path} ended at ${at}, before ${rewrite.keepEnd}`);
        writeSync(to, buf, 0, n);
        at += n;
      }
      for (const b of stored.bytes) writeSync(to, b);
    } finally {
      closeSync(to);
      closeSync(from);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  const bytes = stored.bytes.reduce((n, b) => n + b.length, 0);
  return { tiles: stored.meta.list.length, bytes, seconds: (performance.now() - t0) / 1000 };
}
