// The world's lots tiles over an imported council (issue 56): cut alone, as before, and with the import above it, its
// lots hiding the world's under them (src/tiles/cover.ts). Pages cached, CPU per tile; the 50,000-lot test world.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MemorySource, PageCache, PagedPack } from "../../src/packs/paged/index.ts";
import { type TileCoord, tileOf } from "../../src/tiles/math.ts";
import { pagedTile } from "../../src/tiles/paged.ts";
import { testWorld } from "../dev/test-world.ts";
import { cpuUs } from "./paged/common.ts";
import { type BenchResult, median } from "./result.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 11;
const REPEAT = 100;

const open = (key: string, bytes: Uint8Array) =>
  new PagedPack(new MemorySource(key, bytes), { cache: new PageCache(2 ** 30) });

/** Every tile at zoom z over a box. */
function tilesOver([w, s, e, n]: readonly number[], z: number): TileCoord[] {
  const a = tileOf(w as number, n as number, z);
  const b = tileOf(e as number, s as number, z);
  const out: TileCoord[] = [];
  for (let x = a.x; x <= b.x; x++) for (let y = a.y; y <= b.y; y++) out.push({ z, x, y });
  return out;
}

export async function runImportCoverBenches(): Promise<BenchResult[]> {
  const world = open("public/greater-sydney.pack", new Uint8Array(readFileSync((await testWorld(() => {})).path)));
  const text = readFileSync(`${root}test/fixtures/nsw/imported-hunters-hill.pack.b64`, "utf8");
  const imported = open("public/nsw-hunters-hill.pack", new Uint8Array(Buffer.from(text.trim(), "base64")));
  const [w, s, e, n] = (await imported.snapshot()).root.meta.bbox;
  // A view over the import and round it: tiles it covers, tiles it meets in part, tiles beside it.
  const box = [w - 2 * (e - w), s - 2 * (n - s), e + 2 * (e - w), n + 2 * (n - s)];
  const results: BenchResult[] = [];
  for (const z of [14, 15, 16]) {
    const tiles = tilesOver(box, z);
    let drawnAlone = 0;
    let drawnUnder = 0;
    // Warm: every page of both packs cached, as a busy isolate has them.
    for (const t of tiles) {
      drawnAlone += (await pagedTile(world, t))?.length ?? 0;
      drawnUnder += (await pagedTile(world, t, [imported]))?.length ?? 0;
    }
    const alone: number[] = [];
    const under: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = cpuUs();
      for (let r = 0; r < REPEAT; r++) for (const t of tiles) await pagedTile(world, t);
      alone.push((cpuUs() - t0) / (REPEAT * tiles.length));
      t0 = cpuUs();
      for (let r = 0; r < REPEAT; r++) for (const t of tiles) await pagedTile(world, t, [imported]);
      under.push((cpuUs() - t0) / (REPEAT * tiles.length));
    }
    const a = median(alone);
    const u = median(under);
    results.push({
      name: `z${z} world lots tile under the import, ${tiles.length} tiles`,
      value: u,
      unit: "us/tile",
      baseline: a,
      ratio: a / u,
      note: `baseline: the world's tile alone (before); bytes ${drawnUnder} vs ${drawnAlone} alone`,
    });
  }
  return results;
}
