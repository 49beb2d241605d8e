// Builds a world's v2 lots pack into a file through PackWriter: pages go to disk as they close, never the whole pack.
import { closeSync, openSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { PackWriter } from "../../../src/packs/paged/index.ts";
import { type StoredTilesReport, storeTilesInFile } from "../../pack/stored-tiles.ts";
import type { Sampler } from "./sampler.ts";
import { type World, worldPackOptions } from "./world.ts";

export type BuildStats = {
  lots: number;
  pages: number;
  bytes: number;
  // Tiles stored whole by the builders' last pass (scripts/pack/stored-tiles.ts).
  stored: StoredTilesReport;
  seconds: { total: number; generate: number; encode: number; write: number };
};

const ORDER_CHUNK = 65_536;

/** Writes the world's lot numbers in Hilbert order to `path` (u32 each), so a build streams them from disk. */
export function writeOrder(world: World, path: string): void {
  const order = world.hilbertOrder();
  const fd = openSync(path, "w");
  try {
    writeSync(fd, new Uint8Array(order.buffer, order.byteOffset, order.byteLength));
  } finally {
    closeSync(fd);
  }
}

function* orderFrom(path: string, lots: number): Generator<number> {
  const fd = openSync(path, "r");
  const buf = new Uint32Array(ORDER_CHUNK);
  try {
    for (let at = 0; at < lots; at += ORDER_CHUNK) {
      const n = Math.min(ORDER_CHUNK, lots - at);
      readSync(fd, new Uint8Array(buf.buffer, 0, 4 * n), 0, 4 * n, 4 * at);
      for (let k = 0; k < n; k++) yield buf[k] as number;
    }
  } finally {
    closeSync(fd);
  }
}

/** Streams the lots in `orderPath`'s order through PackWriter: pages to a side file, then head + pages + tail. */
export async function buildPackFile(
  world: World,
  orderPath: string,
  out: string,
  sampler?: Sampler,
): Promise<BuildStats> {
  const t0 = performance.now();
  const pagesPath = `${out}.pages`;
  const pagesFd = openSync(pagesPath, "w");
  let pages = 0;
  let write = 0;
  let encode = 0;
  let generate = 0;
  const writer = new PackWriter(worldPackOptions(world), async (bytes) => {
    const t = performance.now();
    writeSync(pagesFd, bytes);
    write += performance.now() - t;
    pages++;
    sampler?.sample();
    // A collection every 64 pages keeps the retained figure honest without slowing the build much.
    if (pages % 64 === 0) await sampler?.collect();
  });
  let head: Uint8Array;
  let tail: Uint8Array;
  try {
    for (const i of orderFrom(orderPath, world.lots)) {
      let t = performance.now();
      const f = world.feature(i);
      const g = performance.now();
      generate += g - t;
      await writer.add(f);
      t = performance.now();
      encode += t - g;
    }
    const t = performance.now();
    ({ head, tail } = await writer.finish());
    encode += performance.now() - t;
    await sampler?.collect();
  } finally {
    closeSync(pagesFd);
  }
  // Pages' writes happened inside add(); their time is write's, not encode's.
  encode -= write;
  const t = performance.now();
  const fd = openSync(out, "w");
  const inFd = openSync(pagesPath, "r");
  try {
    writeSync(fd, head);
    const buf = new Uint8Array(4 * 2 ** 20);
    for (;;) {
      const n = readSync(inFd, buf, 0, buf.length, null);
      if (n === 0) break;
      writeSync(fd, buf, 0, n);
    }
    writeSync(fd, tail);
  } finally {
    closeSync(inFd);
    closeSync(fd);
    rmSync(pagesPath, { force: true });
  }
  write += performance.now() - t;
  // As every builder does: the tiles whose pages lie too far apart, stored whole.
  const stored = await storeTilesInFile(out);
  const total = (performance.now() - t0) / 1000;
  return {
    lots: world.lots,
    pages,
    bytes: statSync(out).size,
    stored,
    seconds: { total, generate: generate / 1000, encode: encode / 1000, write: write / 1000 },
  };
}
