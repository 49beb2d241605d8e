// A box read past the root's time to live (packs/paged/reader.ts pagesForBox): the page reads carry the root's
// etag and so revalidate it, with no revalidation read of their own; a replaced object is still noticed.
import { beforeEach, describe, expect, it } from "vitest";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, openPack } from "../../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { tileOf } from "../../../../src/tiles/math.ts";
import { pagedTile } from "../../../../src/tiles/paged.ts";
import { makeLots, packOptions } from "./fixture.ts";

const LOTS = makeLots(3000, 11);
const BYTES = await encodePack(LOTS, packOptions());
const quiet = { log: () => {} };

beforeEach(() => clearRootMemo());

describe("a tile read after the root's time to live", () => {
  it("reads only its pages (at most 2 ranges), and the root counts as checked again", async () => {
    let clock = 0;
    const src = new MemorySource("packs/ttl-a.gapk", BYTES, { etag: "e1" });
    const opts = { ...quiet, now: () => clock, rootTtlMs: 1000 };
    await openPack(src, { cache: new PageCache(), ...opts });
    clock = 5000;
    const lot = LOTS[1200]!;
    const pack = await openPack(src, { cache: new PageCache(), ...opts });
    src.resetCounts();
    const tile = await pagedTile(pack, tileOf(lot.centre[0], lot.centre[1], 15));
    expect(tile).not.toBeNull();
    expect(src.reads).toBeGreaterThan(0);
    expect(src.reads).toBeLessThanOrEqual(2);
    // None of the reads is the 64-byte revalidation of the header.
    expect(src.log.every((r) => r.offset > 0)).toBe(true);
    // Checked by those reads: the root is fresh again, so the next query needs no revalidation read.
    expect(pack.current()).not.toBeNull();
  });

  it("notices an object replaced meanwhile and draws the new one", async () => {
    let clock = 0;
    const src = new MemorySource("packs/ttl-b.gapk", BYTES, { etag: "e1" });
    const opts = { ...quiet, now: () => clock, rootTtlMs: 1000 };
    await openPack(src, { cache: new PageCache(), ...opts });
    const moved = makeLots(3000, 12);
    src.replace(await encodePack(moved, packOptions()), "e2");
    clock = 5000;
    const lot = moved[1200]!;
    const pack = await openPack(src, { cache: new PageCache(), ...opts });
    const tile = await pagedTile(pack, tileOf(lot.centre[0], lot.centre[1], 15));
    expect(tile).not.toBeNull();
    expect((await pack.snapshot()).etag).toBe("e2");
    const fresh = await openPack(new MemorySource("packs/ttl-c.gapk", src.data, { etag: "e2" }), {
      cache: new PageCache(),
      ...quiet,
    });
    const want = await pagedTile(fresh, tileOf(lot.centre[0], lot.centre[1], 15));
    expect(Buffer.from(tile as Uint8Array).equals(Buffer.from(want as Uint8Array))).toBe(true);
  });
});
