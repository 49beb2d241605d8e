// A reader that trusts nothing (issue 47, finding 4): a real pack with a root field, header field or page header
// changed, every checksum re-sealed, is refused with a PagedPackError or answered, never a TypeError, in work bounded
// by the object's size (bytes asked of the source, bytes decoded), not by wall time.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../../src/assess/lots-pack.ts";
import { toErrorResponse } from "../../../../src/http/errors.ts";
import { createLogger } from "../../../../src/logger.ts";
import { refuseDamaged } from "../../../../src/packs/request-pages.ts";
import { crc32 } from "../../../../src/packs/crc32.ts";
import { readPackBytes } from "../../../../src/packs/pack-bytes.ts";
import { PagedPackError } from "../../../../src/packs/paged/errors.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { buildBoxGrid } from "../../../../src/packs/paged/box-grid.ts";
import { clearRootMemo, PagedPack, type PageSet, type RefusedPage } from "../../../../src/packs/paged/reader.ts";
import { INITIAL_READ_BYTES, PAGE_HEADER_BYTES } from "../../../../src/packs/paged/schema.ts";
import { MemorySource, type RangeResult, type Source } from "../../../../src/packs/paged/source.ts";
import type { BBox } from "../../../../src/geo/bbox.ts";
import {
  type Crafted,
  indexStart,
  pageStart,
  putTogether,
  setPageField,
  takeApart,
} from "../../../support/crafted-pack.ts";

/** Counts what the reader asks for (not what it gets): a crafted length must never become a large request. */
class AskingSource implements Source {
  readonly key: string;
  asked = 0;
  largest = 0;
  private readonly inner: MemorySource;
  constructor(key: string, bytes: Uint8Array) {
    this.key = key;
    this.inner = new MemorySource(key, bytes);
  }
  getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    this.asked += length;
    this.largest = Math.max(this.largest, length);
    return this.inner.getBytes(offset, length, signal, etag);
  }
}

let bytes: Uint8Array;
let base: Crafted;
// A page in the middle, one lot on it (id and a point inside its box), and a stored tile.
let focus: { page: number; box: BBox; lotId: string; point: [number, number] };
let tile: [number, number, number];
let seq = 0;
const quiet = createLogger({}, () => {});

/** The response a request needing these refused pages gets: a 503 naming the pack by its id. */
async function expectNamed503(refused: readonly RefusedPage[], id: string): Promise<void> {
  let thrown: unknown;
  try {
    refuseDamaged(refused);
  } catch (e) {
    thrown = e;
  }
  const res = toErrorResponse(thrown, quiet);
  expect(res.status).toBe(503);
  expect((await res.json<{ detail: string }>()).detail).toMatch(new RegExp(`^Pack ${id} unavailable: `));
}

beforeAll(async () => {
  const packs = ["sydney-demo", "sydney-suburbs"].map((n) => readPackBytes(readFileSync(`packs/${n}.pack`), n));
  // 2 KiB pages: hundreds of pages, stored tiles, overview pages and a lot-id index, as the builder writes them.
  bytes = await convertToLotsPack(packs[0] as (typeof packs)[0], { context: packs, pageBytes: 2 * 1024 });
  base = takeApart(bytes);
  const pack = new PagedPack(new MemorySource("hostile-base", bytes), { cache: new PageCache() });
  const s = await pack.snapshot();
  const page = Math.floor(s.root.pageCount / 2);
  const box = Array.from(s.root.pageBoxes.subarray(4 * page, 4 * page + 4)) as BBox;
  const hit = (await pack.featuresInBox(box)).features.find((f) => f.page === page);
  const ring = hit?.geometry.coordinates[0]?.[0] ?? [];
  focus = {
    page,
    box,
    lotId: String(hit?.properties.lot_id),
    point: (ring[0] ?? [box[0], box[1]]) as [number, number],
  };
  tile = (s.root.meta.tiles?.list.find((t) => t[3] > 0) ?? [0, 0, 0]).slice(0, 3) as [number, number, number];
}, 60_000);

type Probe = { refused: number; answered: number; asked: number; largest: number; decoded: number };

/** Every kind of query on `object`: each must answer or refuse with a PagedPackError; the work is counted. */
async function probe(object: Uint8Array): Promise<Probe> {
  clearRootMemo();
  const source = new AskingSource(`public/hostile-${seq++}@v.pack`, object);
  const pack = new PagedPack(source, { cache: new PageCache(64 * 1024 * 1024), log: () => {} });
  const [x, y] = focus.point;
  const queries: (() => Promise<unknown>)[] = [
    () => pack.snapshot(),
    () => pack.lotAt(x, y),
    () => pack.featuresAt(x, y),
    () => pack.featuresInBox(focus.box),
    () => pack.pagesForBox(focus.box),
    () => pack.byLotId(focus.lotId),
    () => pack.overviewFor([140, -40, 160, -25]),
    () => pack.storedTile(...tile),
  ];
  const out: Probe = { refused: 0, answered: 0, asked: 0, largest: 0, decoded: 0 };
  for (const q of queries) {
    try {
      const r = (await q()) as Partial<PageSet> | undefined;
      out.answered++;
      for (const p of r?.pages ?? []) out.decoded += "bytes" in p ? p.bytes : 0;
      if (r?.refused?.length) await expectNamed503(r.refused, `hostile-${seq - 1}`);
    } catch (e) {
      // Anything but a PagedPackError (a TypeError, a RangeError from a vast allocation) fails the test here.
      if (!(e instanceof PagedPackError)) throw e;
      expect(e.detail).toContain(`Pack hostile-${seq - 1} unavailable`);
      out.refused++;
    }
  }
  out.asked = source.asked;
  out.largest = source.largest;
  // Each query reads at most the object once; a decoded page is a small multiple of its bytes.
  expect(out.largest).toBeLessThanOrEqual(Math.max(object.length, INITIAL_READ_BYTES));
  expect(out.asked).toBeLessThanOrEqual(queries.length * (object.length + INITIAL_READ_BYTES));
  expect(out.decoded).toBeLessThanOrEqual(32 * object.length);
  return out;
}

const copy = (): Crafted => ({
  header: { ...base.header },
  meta: structuredClone(base.meta),
  tables: {
    ...base.tables,
    lengths: base.tables.lengths.slice(),
    crcs: base.tables.crcs.slice(),
    counts: base.tables.counts.slice(),
    boxes: base.tables.boxes.slice(),
    max: base.tables.max.map((m) => m.slice()),
    flags: base.tables.flags.slice(),
    zoneBits: base.tables.zoneBits.slice(),
    indexFirstHash: base.tables.indexFirstHash.slice(),
    indexLengths: base.tables.indexLengths.slice(),
    indexCrcs: base.tables.indexCrcs.slice(),
  },
  body: base.body.slice(),
});

// Values that break u32 fields at their edges.
const U32 = [0, 1, 2, 7, 8, 16, 255, 0xffff, 0x10000, 60_000, 0x7fffffff, 0x80000000, 0xffffffff];
const u32 = fc.oneof(fc.constantFrom(...U32), fc.nat());
const JSON_VALUES: unknown[] = [null, "x", "", -1, 0, 0.5, 1e300, 2 ** 32, true, [], {}, [1, 2, 3, 4], ["R2"]];

// Every path into the metadata down to three levels (arrays by their first and last element).
function metaPaths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (at.length >= 3 || v === null || typeof v !== "object") return [at];
  const keys: (string | number)[] = Array.isArray(v)
    ? [...new Set([0, v.length - 1])].filter((k) => k >= 0)
    : Object.keys(v);
  return [at, ...keys.flatMap((k) => metaPaths((v as Record<string | number, unknown>)[k], [...at, k]))];
}

function setPath(meta: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean): void {
  let o = meta as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove && Array.isArray(o)) o.splice(Number(last), 1);
  else if (remove) delete o[last];
  else o[last] = value;
}

describe("a crafted v2 pack (valid checksums) is refused cleanly, in bounded work", () => {
  it("the pack as built answers every query", async () => {
    const r = await probe(putTogether(copy()));
    expect(r).toMatchObject({ refused: 0, answered: 8 });
  });

  it("any root metadata field removed or of another type", async () => {
    const paths = metaPaths(base.meta).filter((p) => p.length > 0);
    expect(paths.length).toBeGreaterThan(40);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom(...JSON_VALUES), fc.boolean(), async (p, v, rm) => {
        const c = copy();
        setPath(c.meta, p, v, rm);
        await probe(putTogether(c));
      }),
      { numRuns: 150, seed: 47 },
    );
  });

  it("any root table entry or header count changed", async () => {
    const tables = [
      "lengths",
      "crcs",
      "counts",
      "boxes",
      "flags",
      "zoneBits",
      "indexFirstHash",
      "indexLengths",
    ] as const;
    const headers = ["pageCount", "featureCount", "indexPageCount", "objectLength", "dataStart", "rootLength"] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ table: fc.constantFrom(...tables), at: fc.nat(), value: u32 }),
          fc.record({ header: fc.constantFrom(...headers), value: u32 }),
        ),
        async (m) => {
          const c = copy();
          if ("table" in m) {
            const t = c.tables[m.table];
            t[m.at % t.length] = m.value;
            await probe(putTogether(c));
          } else await probe(putTogether(c, { header: { [m.header]: m.value } }));
        },
      ),
      { numRuns: 150, seed: 47 },
    );
  });

  it("any data page header field changed (the page's and the root's checksums re-sealed)", async () => {
    const columns = (base.meta.columns as unknown[]).length;
    // Page number, feature count, section count, coding, frame, then each section's offset and length.
    const fields = [8, 12, 16, 20, 24, 28, 32, 36, ...Array.from({ length: 2 * (2 + columns) }, (_, k) => 40 + 4 * k)];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), u32, fc.constantFrom(0, 1, -1), async (field, value, shift) => {
        const c = copy();
        const page = Math.max(0, focus.page + shift);
        setPageField(c, page, field, value, field >= 24 && field < PAGE_HEADER_BYTES);
        await probe(putTogether(c));
      }),
      { numRuns: 150, seed: 47 },
    );
  });

  it("a lot-id index page's header or entries changed (re-sealed)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), u32, fc.boolean(), async (at, value, entry) => {
        const c = copy();
        const start = indexStart(c, 0);
        const page = c.body.subarray(start, start + (c.tables.indexLengths[0] as number));
        const v = new DataView(page.buffer, page.byteOffset, page.byteLength);
        const k = v.getUint32(12, true);
        // Entries' page numbers from one on, or a header field (page number, entry count).
        if (entry) for (let i = at % k; i < k; i++) v.setUint16(16 + 4 * k + 2 * i, value & 0xffff, true);
        else v.setUint32(8 + 4 * (at % 2), value, true);
        const crc = crc32(page.subarray(8));
        v.setUint32(4, crc, true);
        c.tables.indexCrcs[0] = crc;
        await probe(putTogether(c));
      }),
      { numRuns: 60, seed: 47 },
    );
  });
});

describe("the crafted objects of the hostile pass", () => {
  it("60,000 zero-length pages are refused from the root alone: no page is read", async () => {
    const c = copy();
    const n = 60_000;
    const real = pageStart(c, c.header.pageCount);
    // Zero-length pages, and one last page holding every page's bytes so the total still matches.
    c.tables.lengths = new Uint32Array(n).fill(0);
    c.tables.lengths[n - 1] = real;
    c.tables.crcs = new Uint32Array(n);
    c.tables.counts = new Uint32Array(n).fill(1);
    c.tables.boxes = Int32Array.from(
      { length: 4 * n },
      (_, k) => [1_500_000_000, -340_000_000, 1_520_000_000, -330_000_000][k % 4] as number,
    );
    c.tables.max = c.tables.max.map(() => new Float32Array(n));
    c.tables.flags = new Uint8Array(n);
    c.tables.zoneBits = new Uint8Array(n * Math.ceil((c.meta.zoneDict as string[]).length / 8));
    const object = putTogether(c, { header: { pageCount: n, featureCount: n } });
    const r = await probe(object);
    expect(r.answered).toBe(0);
    // The first read (header and root) and one more for a root past it, per query: never a page.
    expect(r.asked).toBeLessThanOrEqual(8 * (INITIAL_READ_BYTES + object.length - c.body.length));
    clearRootMemo();
    await expect(new PagedPack(new MemorySource("public/zero@v.pack", object)).snapshot()).rejects.toThrow(
      /page 0 is 0 bytes/,
    );
  });

  it.each(["columns", "summary", "zoneDict", "tiles.list", "overview.pages", "lotIdColumn", "info"])(
    "a root without meta.%s is refused when read, not a TypeError later",
    async (field) => {
      const c = copy();
      setPath(c.meta, field.split("."), undefined, true);
      const r = await probe(putTogether(c));
      expect(r.refused).toBe(8);
    },
  );

  it("an inflated page length, made up by a negative overview length, is refused before a large read", async () => {
    const c = copy();
    const d = 2 ** 30;
    c.tables.lengths[focus.page] = (c.tables.lengths[focus.page] as number) + d;
    const ov = (c.meta.overview as { pages: { length: number }[] }).pages[0] as { length: number };
    ov.length -= d;
    const r = await probe(putTogether(c));
    expect(r.refused).toBe(8);
    expect(r.largest).toBeLessThanOrEqual(INITIAL_READ_BYTES);
  });

  it("a lot-id index entry naming a missing page refuses that index page, never a TypeError", async () => {
    const c = copy();
    const start = indexStart(c, 0);
    const page = c.body.subarray(start, start + (c.tables.indexLengths[0] as number));
    const v = new DataView(page.buffer, page.byteOffset, page.byteLength);
    const k = v.getUint32(12, true);
    for (let i = 0; i < k; i++) v.setUint16(16 + 4 * k + 2 * i, c.header.pageCount + 5, true);
    const crc = crc32(page.subarray(8));
    v.setUint32(4, crc, true);
    c.tables.indexCrcs[0] = crc;
    clearRootMemo();
    const pack = new PagedPack(new MemorySource("public/index@v.pack", putTogether(c)), { log: () => {} });
    const r = await pack.byLotId(focus.lotId);
    expect(r.features).toEqual([]);
    expect(r.refused[0]?.message).toMatch(/lot-id index page 0 refused: entry 0 names page \d+, past the \d+ pages/);
  });

  it("a grid of boxes that would fill every cell gives up before counting them", () => {
    let boxes = 0;
    const all = (_: number, out: Float64Array) => {
      boxes++;
      out.set([0, 0, 1, 1]);
    };
    // 60,000 boxes over 1024 x 1024 cells: 6e10 cell counts before, a handful of boxes now.
    expect(buildBoxGrid(60_000, [0, 0, 1, 1], 1024, all, 32 * 60_000)).toBeNull();
    expect(boxes).toBeLessThanOrEqual(3);
  });

  it("a PagedPackError is a 503 naming the pack by its id, in the spec's envelope", async () => {
    const e = new PagedPackError("orgs/o1/lots-7f3a.pack", "pack orgs/o1/lots-7f3a.pack: root index refused: columns");
    const res = toErrorResponse(e, quiet);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      detail: "Pack lots-7f3a unavailable: pack orgs/o1/lots-7f3a.pack: root index refused: columns",
    });
  });
});
