// Requests of one isolate share resolved pages, roots and listings, never a read in flight: in workerd a request
// awaiting I/O another request began waits forever once that request is cancelled (before issue 48 the page cache,
// the root memo, the public registry and private v1 packs shared in-flight promises, and these tests hung). Request A runs in a Durable
// Object's context, aborted mid-read: workerd then cancels the I/O that context began (its R2 reads, its timers), as it
// does for a request whose client went away. Request B is the test's own context.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { isolatePageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { R2Source, type RangeResult, type Source } from "../../../src/packs/paged/source.ts";
import { loadPrivatePacks } from "../../../src/packs/private/load.ts";
import { privateKey } from "../../../src/packs/private/store.ts";
import { loadPublic, resetPublicPacks } from "../../../src/packs/registry.ts";
import { squareSuburb, suburbPack } from "../../support/packs.ts";
import { makeLots, packOptions } from "../../unit/packs/paged/fixture.ts";

const LOTS = makeLots(600, 3);
const LOT = LOTS[123] as (typeof LOTS)[number];
// R2's first-byte latency, long enough that request A is cancelled while its read waits on it.
const LATENCY_MS = 300;
// Far past a read's time: a request still waiting then would wait for ever.
const PATIENCE_MS = 5_000;
let bytes: Uint8Array;

beforeAll(async () => {
  bytes = await encodePack(LOTS, packOptions(8 * 1024));
});
beforeEach(() => {
  clearRootMemo();
  resetPublicPacks();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** R2 reached after a delay: a timer belongs to the request that set it, as an R2 read in flight does. */
class SlowR2 implements Source {
  readonly key: string;
  private readonly inner: R2Source;
  reads = 0;

  constructor(key: string) {
    this.key = key;
    this.inner = new R2Source(env.PACKS, key);
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    this.reads++;
    await sleep(LATENCY_MS);
    return this.inner.getBytes(offset, length, signal, etag);
  }
}

/** The bucket, its `method` reached after R2's latency when `slow` says so of a call's arguments; `calls` counts those. */
function slowed(method: "get" | "list", slow: (args: unknown[]) => boolean): { bucket: R2Bucket; calls: () => number } {
  let calls = 0;
  const bucket = new Proxy(env.PACKS, {
    get(bucket, name) {
      const v: unknown = Reflect.get(bucket, name);
      if (typeof v !== "function") return v;
      const call = (...args: unknown[]): unknown => Reflect.apply(v, bucket, args);
      if (name !== method) return call;
      return async (...args: unknown[]) => {
        if (slow(args)) {
          calls++;
          await sleep(LATENCY_MS);
        }
        return call(...args);
      };
    },
  });
  return { bucket, calls: () => calls };
}

/** A pack in R2 under a fresh key, read through the isolate's own page cache as the Worker reads it. */
async function storedPack(): Promise<{ source: SlowR2; pack: PagedPack }> {
  const key = `public/shared-reads-${crypto.randomUUID()}.pack`;
  await env.PACKS.put(key, bytes);
  const source = new SlowR2(key);
  return { source, pack: new PagedPack(source, { cache: isolatePageCache(), log: () => {} }) };
}

/** Runs `begin` in a fresh Durable Object's context, then aborts that context once `reading` says its read is in flight. */
async function abortedMidRead(begin: () => Promise<unknown>, reading: () => boolean): Promise<void> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`request-a-${crypto.randomUUID()}`));
  const a = runInDurableObject(stub, async (_object, state) => {
    begin().catch(() => {});
    for (let waited = 0; !reading(); waited += 5) {
      if (waited > PATIENCE_MS) throw new Error("request A never began its read");
      await sleep(5);
    }
    state.abort("request A's client went away");
  });
  await expect(a).rejects.toThrow(/client went away/);
}

/** What `p` settles to within PATIENCE_MS, or "still waiting". */
function within<T>(p: Promise<T>): Promise<T | "still waiting"> {
  return Promise.race([p, sleep(PATIENCE_MS).then(() => "still waiting" as const)]);
}

describe("a request never waits on a read another request began", () => {
  it("a cold page whose read began in a request since aborted is read again by the next request, which gets its lot", async () => {
    const { source, pack } = await storedPack();
    await pack.snapshot();
    const before = source.reads;
    await abortedMidRead(
      () => pack.lotAt(LOT.centre[0], LOT.centre[1]),
      () => source.reads > before,
    );
    expect(source.reads).toBe(before + 1);
    const b = await within(pack.lotAt(LOT.centre[0], LOT.centre[1]));
    expect(b === "still waiting" ? b : b.lot !== null).toBe(true);
    // B read the page itself: A's read never finished.
    expect(source.reads).toBe(before + 2);
  });

  it("a cold root whose read began in a request since aborted is read again by the next request, which gets its lot", async () => {
    const { source, pack } = await storedPack();
    await abortedMidRead(
      () => pack.lotAt(LOT.centre[0], LOT.centre[1]),
      () => source.reads > 0,
    );
    expect(source.reads).toBe(1);
    const b = await within(pack.lotAt(LOT.centre[0], LOT.centre[1]));
    expect(b === "still waiting" ? b : b.lot !== null).toBe(true);
    // B's own root, then its page.
    expect(source.reads).toBe(3);
  });

  it("a public listing begun by a request since aborted does not hold up the next request's", async () => {
    const prefix = `public/shared-listing-${crypto.randomUUID()}/`;
    await env.PACKS.put(`${prefix}lots.pack`, bytes);
    // A's listing waits on R2 as long as a slow read would; B lists through the plain binding.
    const slow = slowed("list", () => true);
    await abortedMidRead(
      () => loadPublic(slow.bucket, prefix),
      () => slow.calls() > 0,
    );
    const b = await within(loadPublic(env.PACKS, prefix));
    expect(b === "still waiting" ? b : b.paged.length).toBe(1);
  });

  it("an organisation's v1 pack whose read began in a request since aborted is read again by the next request", async () => {
    const orgId = crypto.randomUUID();
    await env.PACKS.put(
      privateKey(orgId, "mine"),
      await suburbPack("mine", "1", [squareSuburb("Mine", 151.2, -33.9)], { format: "v1" }),
    );
    // A reads the whole object slowly; a range read (its format probe) is not held up.
    const slow = slowed("get", (args) => !(args[1] as R2GetOptions | undefined)?.range);
    await abortedMidRead(
      () => loadPrivatePacks({ PACKS: slow.bucket, PRIVATE_PACKS: env.PRIVATE_PACKS }, orgId),
      () => slow.calls() > 0,
    );
    const b = await within(loadPrivatePacks(env, orgId));
    expect(b === "still waiting" ? b : b.packs.map((p) => p.id)).toEqual(["mine"]);
  });

  it("a page one request read serves a request in another context from the cache, with no read", async () => {
    const { source, pack } = await storedPack();
    await pack.snapshot();
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`request-a-${crypto.randomUUID()}`));
    const a = await runInDurableObject(stub, async () => (await pack.lotAt(LOT.centre[0], LOT.centre[1])).lot?.index);
    const reads = source.reads;
    const b = await within(pack.lotAt(LOT.centre[0], LOT.centre[1]));
    expect(b === "still waiting" ? b : b.lot?.index).toBe(a);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(source.reads).toBe(reads);
  });
});
