// The six-suburb demo read whole (as the registry holds a pack of layers; `v1`, the whole-file path v1 packs were
// decoded into) and converted to a v2 lots pack, in memory: the like-for-like pair.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { MemorySource, PageCache, PagedPack } from "../../../src/packs/paged/index.ts";
import type { Pack } from "../../../src/packs/types.ts";

const root = fileURLToPath(new URL("../../..", import.meta.url));

export type Demo = { v1: Pack; v2: PagedPack };

export async function loadDemo(): Promise<Demo> {
  const v1 = readPackBytes(readFileSync(`${root}packs/sydney-demo.pack`), "sydney-demo.pack");
  const suburbs = readPackBytes(readFileSync(`${root}packs/sydney-suburbs.pack`), "sydney-suburbs.pack");
  const bytes = await convertToLotsPack(v1, { context: [v1, suburbs] });
  // A cache larger than the demo, so every page stays decoded once read (the warm case both paths are timed in).
  const v2 = new PagedPack(new MemorySource("public/sydney-demo@bench.pack", bytes), {
    cache: new PageCache(2 ** 30),
    log: () => {},
  });
  return { v1, v2 };
}
