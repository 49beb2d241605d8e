// A cold isolate opens a public v2 pack from its listing: an object stored with its metadata (object-meta.ts) in one
// range read of its header and root, however large the root; one stored before the metadata existed still opens.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { pagedObjectMetadata } from "../../../src/packs/paged/object-meta.ts";
import { clearRootMemo } from "../../../src/packs/paged/reader.ts";
import { INITIAL_READ_BYTES, readHeader } from "../../../src/packs/paged/schema.ts";
import { loadPublic, resetPublicPacks } from "../../../src/packs/registry.ts";
import { makeLots, packOptions } from "../../unit/packs/paged/fixture.ts";

// One lot a page: a root of about 274 KiB, past the reader's first 256 KiB guess, as at 5M real lots.
const LOTS = makeLots(6_500, 5);
const LOT = LOTS[4_321] as (typeof LOTS)[number];
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await encodePack(LOTS, packOptions(16));
  expect(readHeader(bytes, "t").dataStart).toBeGreaterThan(INITIAL_READ_BYTES);
}, 60_000);
beforeEach(() => {
  clearRootMemo();
  resetPublicPacks();
});

/** The bucket, counting the reads (whole or by range) of each object. */
function countingBucket(): { bucket: R2Bucket; reads: (key: string) => number } {
  const reads = new Map<string, number>();
  const bucket = new Proxy(env.PACKS, {
    get(b, name) {
      if (name === "get")
        return (key: string, opts?: R2GetOptions) => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return b.get(key, opts);
        };
      const v: unknown = Reflect.get(b, name);
      return typeof v === "function" ? v.bind(b) : v;
    },
  });
  return { bucket, reads: (key) => reads.get(key) ?? 0 };
}

async function coldLot(meta: boolean): Promise<{ opening: number; lookup: number }> {
  const prefix = `public/registry-open-${crypto.randomUUID()}/`;
  const key = `${prefix}lots.pack`;
  await env.PACKS.put(key, bytes, meta ? { customMetadata: pagedObjectMetadata(bytes, key) } : {});
  const { bucket, reads } = countingBucket();
  const { paged } = await loadPublic(bucket, prefix);
  const opening = reads(key);
  const pack = paged[0];
  if (!pack) throw new Error("the pack was not listed");
  const found = await pack.lotAt(LOT.centre[0], LOT.centre[1]);
  expect(found.lot).not.toBeNull();
  return { opening, lookup: reads(key) - opening };
}

describe("a cold isolate's first lot of a 274 KiB root", () => {
  it("listed with its metadata: one read opens the pack (header and root, no format probe), one more reads the lot", async () => {
    expect(await coldLot(true)).toEqual({ opening: 1, lookup: 1 });
  });

  it("stored without the metadata (uploaded before it): a format probe, then header and root in two reads", async () => {
    expect(await coldLot(false)).toEqual({ opening: 3, lookup: 1 });
  });
});
