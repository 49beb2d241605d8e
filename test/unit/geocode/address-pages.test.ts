// Addresses in v2 packs: only the pages of the suburb a typed address ends with are read, within the page budget.
import { openPacks } from "../../../src/packs/open-pack.ts";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { addressPages, trailingSuburb } from "../../../src/geocode/address-pages.ts";
import { suggest } from "../../../src/geocode/suggest.ts";
import { MAX_PAGES_PER_REQUEST } from "../../../src/packs/request-pages.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";

const read = (name: string): Pack => {
  const b = readFileSync(new URL(`../../../packs/${name}`, import.meta.url));
  return readPackBytes(b, name);
};
const demo = read("sydney-demo.pack");
const suburbs = read("sydney-suburbs.pack");
const ADDRESS = "23 Pembroke Street, Epping NSW 2121";

let normal: Uint8Array;
let tiny: Uint8Array;
const open = (key: string, bytes: Uint8Array) => {
  const source = new MemorySource(key, bytes);
  return { source, pack: new PagedPack(source, { cache: new PageCache() }) };
};

beforeAll(async () => {
  clearRootMemo();
  normal = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  // Pages so small that one suburb needs more of them than a request may read.
  tiny = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 512 });
}, 60_000);

describe("trailingSuburb", () => {
  it("finds the suburb at the end, past a state and postcode, the longest name first", () => {
    expect(trailingSuburb([suburbs], "23 pembroke street, epping")?.name).toBe("Epping");
    expect(trailingSuburb([suburbs], "23 Pembroke St Epping NSW 2121")?.name).toBe("Epping");
    expect(trailingSuburb([suburbs], "5 Church St North Parramatta")?.name).toBe("North Parramatta");
  });

  it("finds none while the suburb is unfinished or when only a suburb was typed", () => {
    expect(trailingSuburb([suburbs], "23 Pembroke")).toBeNull();
    expect(trailingSuburb([suburbs], "23 pembroke st epp")).toBeNull();
    expect(trailingSuburb([suburbs], "Epping")).toBeNull();
  });
});

describe("addressPages", () => {
  it("reads the suburb's pages of a v2 pack, and suggest finds the address on them", async () => {
    const { source, pack } = open("public/addr-normal.pack", normal);
    const { own, public: pages } = await addressPages(
      [...openPacks([], true), ...openPacks([pack])],
      [suburbs],
      "23 pembroke street, epping",
    );
    expect(own).toEqual([]);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(pack.pagesInBox(await pack.snapshot(), demo.bbox).length);
    expect(source.reads).toBeGreaterThan(0);
    const [first] = suggest([suburbs, ...pages], "23 pembroke street, epping", 8);
    expect(first).toMatchObject({ kind: "lot", name: ADDRESS });
  });

  it("reads no v2 pack without a house number or a finished suburb", async () => {
    const { source, pack } = open("public/addr-unread.pack", normal);
    const none = { own: [], public: [], skipped: 0 };
    expect(await addressPages([...openPacks([pack], true), ...openPacks([pack])], [suburbs], "Epping")).toEqual(none);
    expect(
      await addressPages([...openPacks([pack], true), ...openPacks([pack])], [suburbs], "23 Pembroke St Epp"),
    ).toEqual(none);
    expect(source.reads).toBe(0);
  });

  it("reads the organisation's packs first and counts the page budget over all packs", async () => {
    const own = open("orgs/o/addr-own.pack", normal).pack;
    const pub = open("public/addr-pub.pack", normal).pack;
    const epping = trailingSuburb([suburbs], "23 Pembroke St Epping")?.bbox ?? [0, 0, 0, 0];
    const need = own.pagesInBox(await own.snapshot(), epping).length;
    expect(need).toBeGreaterThan(0);
    const both = await addressPages(
      [...openPacks([own], true), ...openPacks([pub])],
      [suburbs],
      "23 Pembroke St Epping",
    );
    expect(both.own).toHaveLength(need);
    expect(both.public).toHaveLength(need);
    // As many organisation packs as the budget holds: the public pack, read last, no longer fits.
    const fill = Array.from({ length: Math.floor(MAX_PAGES_PER_REQUEST / need) }, () => own);
    const full = await addressPages(
      [...openPacks(fill, true), ...openPacks([pub])],
      [suburbs],
      "23 Pembroke St Epping",
    );
    expect(full.own).toHaveLength(fill.length * need);
    expect(full.public).toEqual([]);
  });

  it("skips a pack whose suburb needs more than MAX_PAGES_PER_REQUEST pages, reading none of them", async () => {
    const { source, pack } = open("public/addr-tiny.pack", tiny);
    const epping = trailingSuburb([suburbs], "23 Pembroke St Epping");
    expect(pack.pagesInBox(await pack.snapshot(), epping?.bbox ?? [0, 0, 0, 0]).length).toBeGreaterThan(
      MAX_PAGES_PER_REQUEST,
    );
    const rootReads = source.reads;
    // Skipped in both lists, and counted: a batch by address says so instead of "not found".
    const none = { own: [], public: [], skipped: 2 };
    expect(
      await addressPages([...openPacks([pack], true), ...openPacks([pack])], [suburbs], "23 Pembroke St Epping"),
    ).toEqual(none);
    expect(source.reads).toBe(rootReads);
  });
});
