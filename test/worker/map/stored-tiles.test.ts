// Tiles a v2 pack stores whole, through the real app and R2: a z14 tile over more pages than one request may read
// (the demo cut into 2 KiB pages) is served, the tile its pages give, where it was refused as too large; a damaged
// stored tile is a 503 naming it while the other tiles answer.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { MAX_PAGES_PER_REQUEST } from "../../../src/packs/request-pages.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack, type Snapshot } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { BUFFER, tileBBox } from "../../../src/tiles/math.ts";
import { cutFromPages } from "../../../src/tiles/prebuilt-tiles.ts";
import { demoPackBytes } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

const KEY = "public/sydney-demo@small-pages.pack";
let org: TestOrg;
let bytes: Uint8Array;
let s: Snapshot;
let probe: PagedPack;
let demoVersion: (version: string) => Promise<Uint8Array>;

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  demoVersion = (version) => convertToLotsPack({ ...demo, version }, { context: [demo, suburbs], pageBytes: 2 * 1024 });
  bytes = await demoVersion("small");
  probe = new PagedPack(new MemorySource("probe-stored", bytes), { cache: new PageCache(2 ** 30) });
  s = await probe.snapshot();
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
}, 120_000);

async function publish(object: Uint8Array): Promise<void> {
  const listed = await env.PACKS.list({ prefix: "public/" });
  await env.PACKS.delete([...listed.objects.map((o) => o.key), REGISTRY_KEY]);
  await env.PACKS.put(KEY, object);
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": KEY } }));
  resetPublicPacks();
}

const tile = (z: number, x: number, y: number) =>
  SELF.fetch(`https://api.test/tiles/sydney-demo/${z}/${x}/${y}.mvt`, { headers: bearer(org.users.member.token) });

// The stored tiles that draw lots and lie over more pages than a request may read.
function overfull(): number[][] {
  const list = s.root.meta.tiles?.list ?? [];
  return list.filter(
    ([z, x, y, length]) =>
      (length as number) > 0 &&
      probe.pagesInBox(s, tileBBox({ z, x, y } as { z: number; x: number; y: number }, BUFFER)).length >
        MAX_PAGES_PER_REQUEST,
  );
}

describe("tiles a v2 pack stores whole", () => {
  it("a z14 tile over more pages than one request may read is served, the tile its pages give", async () => {
    const wide = overfull();
    expect(wide.length).toBeGreaterThan(0);
    await publish(bytes);
    for (const [z, x, y] of wide.slice(0, 3) as [number, number, number][]) {
      const res = await tile(z, x, y);
      expect(res.status, `${z}/${x}/${y}`).toBe(200);
      const served = Buffer.from(await res.arrayBuffer());
      const cut = await cutFromPages(probe, { z, x, y });
      expect(served.equals(Buffer.from(cut as Uint8Array)), `${z}/${x}/${y}`).toBe(true);
    }
  });

  it("a damaged stored tile is a 503 naming it; the other tiles still answer", async () => {
    const list = s.root.meta.tiles?.list ?? [];
    const wide = overfull();
    const [z, x, y] = wide[0] as number[];
    const i = list.findIndex((e) => e[0] === z && e[1] === x && e[2] === y);
    // Another version, so no tile of the first is answered from the edge cache.
    const damaged = await demoVersion("damaged");
    const own = await new PagedPack(new MemorySource("probe-damaged", damaged)).snapshot();
    expect(own.root.meta.tiles?.list[i]?.slice(0, 3)).toEqual([z, x, y]);
    const at = (own.root.tileOffsets[i] as number) + 10;
    damaged[at] = (damaged[at] as number) ^ 0xff;
    await publish(damaged);
    const res = await tile(z as number, x as number, y as number);
    expect(res.status).toBe(503);
    expect((await res.json<{ detail: string }>()).detail).toContain(`stored tile ${z}/${x}/${y} is damaged`);
    const [z2, x2, y2] = wide[1] ?? (list.find((e, k) => k !== i && (e[3] as number) > 0) as number[]);
    expect((await tile(z2 as number, x2 as number, y2 as number)).status).toBe(200);
  });
});
