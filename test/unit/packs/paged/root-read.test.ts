// A cold reader's first request: the header and root whole when the object's metadata says how long they are
// (object-meta.ts), else a 256 KiB guess and, for a root past it (millions of lots), a second read.
import { beforeEach, describe, expect, it } from "vitest";
import { encodePack as encodeV1 } from "../../../../src/packs/v1/encode.ts";
import { PagedPackError } from "../../../../src/packs/paged/errors.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { headBytesOf, isPagedObject, pagedObjectMetadata } from "../../../../src/packs/paged/object-meta.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../../src/packs/paged/reader.ts";
import { HEADER_BYTES, INITIAL_READ_BYTES, MAX_ROOT_BYTES, readHeader } from "../../../../src/packs/paged/schema.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { makeLots, packOptions } from "./fixture.ts";

// One lot a page: 6,500 pages, a root of about 274 KiB, past the first read's 256 KiB guess as at 5M real lots.
const LOTS = makeLots(6_500, 5);
const BYTES = await encodePack(LOTS, packOptions(16));
const HEAD = readHeader(BYTES, "t");
const META = pagedObjectMetadata(BYTES, "t");
let n = 0;
const source = () => new MemorySource(`packs/root-read-${n++}.gapk`, BYTES);
const reader = (src: MemorySource, headBytes?: number) =>
  new PagedPack(src, { cache: new PageCache(), log: () => {}, headBytes });

beforeEach(() => clearRootMemo());

describe("the header and root of a cold pack", () => {
  it("the fixture's root is larger than the first read's guess", () => {
    expect(HEAD.dataStart).toBeGreaterThan(INITIAL_READ_BYTES);
  });

  it("without the metadata's length, take two reads: the guess, then the rest of the root", async () => {
    const src = source();
    await reader(src).snapshot();
    expect(src.log).toEqual([
      { offset: 0, length: INITIAL_READ_BYTES },
      { offset: INITIAL_READ_BYTES, length: HEAD.dataStart - INITIAL_READ_BYTES },
    ]);
  });

  it("with the metadata's length, come in one read of exactly their bytes", async () => {
    const src = source();
    const s = await reader(src, headBytesOf(META)).snapshot();
    expect(src.log).toEqual([{ offset: 0, length: HEAD.dataStart }]);
    expect(s.root.pageCount).toBe(HEAD.pageCount);
  });

  it("with the metadata's length, a cold lookup of a lot is two reads: header and root, then its page", async () => {
    const src = source();
    const lot = LOTS[3_210]!;
    const found = await reader(src, headBytesOf(META)).lotAt(lot.centre[0], lot.centre[1]);
    expect(found.lot).not.toBeNull();
    expect(src.reads).toBe(2);
  });

  it("a length too short for the root (a stale or wrong listing) still opens the pack, reading the rest", async () => {
    const src = source();
    const s = await reader(src, 100_000).snapshot();
    expect(src.log).toEqual([
      { offset: 0, length: 100_000 },
      { offset: 100_000, length: HEAD.dataStart - 100_000 },
    ]);
    expect(s.root.pageCount).toBe(HEAD.pageCount);
  });

  it("a length no root can have is ignored: the guess is read instead", async () => {
    for (const bad of [Number.NaN, -5, 10, HEADER_BYTES, 1.5e5 + 0.5, HEADER_BYTES + MAX_ROOT_BYTES + 8, 2 ** 60]) {
      const src = source();
      await reader(src, bad).snapshot();
      expect(src.log[0]).toEqual({ offset: 0, length: INITIAL_READ_BYTES });
    }
  });
});

describe("a pack object's metadata", () => {
  it("names format 2 and the header-and-root length; says nothing of an object stored without it", () => {
    expect(META).toEqual({ format: "2", head_bytes: String(HEAD.dataStart) });
    expect(isPagedObject(META)).toBe(true);
    expect(isPagedObject({ format: "1" })).toBe(false);
    expect(isPagedObject({})).toBeUndefined();
    expect(isPagedObject(undefined)).toBeUndefined();
    expect(headBytesOf({})).toBeUndefined();
  });

  it("is refused for a v1 pack, with the sentence the reader gives", () => {
    const v1 = encodeV1({ id: "v1", version: "1", meta: { title: "t", attribution: "a", licence: "l" }, layers: [] });
    expect(() => pagedObjectMetadata(v1, "v1.pack")).toThrow(PagedPackError);
    expect(() => pagedObjectMetadata(v1, "v1.pack")).toThrow(/expected pack format v2, got v1/);
  });
});
