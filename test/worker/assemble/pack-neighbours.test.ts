// POST /sites/assemble over a lots pack carrying the neighbours column (issue 55) and over the same lots written
// without it (a pack built before it, whose adjacency is measured from the outlines at query time): the same groups,
// isolated neighbours and cursors. Pages of 32 KiB, so lots and their neighbours lie on different pages.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { MemorySource, NEIGHBOURS_COLUMN, PagedPack } from "../../../src/packs/paged/index.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { lotsPackWithout } from "../../support/older-lots-pack.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

// Both objects carry the same pack id and version, so group ids (which name them) compare too.
const WITH = "public/sydney-demo@neighbours.pack";
const WITHOUT = "public/sydney-demo@outlines.pack";
let org: TestOrg;
let withColumn: Uint8Array;
let withoutColumn: Uint8Array;

async function publish(key: string, object: Uint8Array): Promise<void> {
  await env.PACKS.delete("public/sydney-demo.pack");
  await env.PACKS.put(key, object);
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": key } }));
  resetPublicPacks();
}

// Roots are memoised by object key: each probe reads its own.
const columnsOf = async (key: string, bytes: Uint8Array) =>
  (await new PagedPack(new MemorySource(`probe/${key}`, bytes)).snapshot()).root.meta.columns.map((c) => c.name);

beforeAll(async () => {
  await putDemoPacks();
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  const context = [demo, suburbs];
  const pack = { ...demo, version: "neighbours" };
  withColumn = await convertToLotsPack(pack, { context, pageBytes: 32 * 1024, neighbours: true });
  const layer = demo.layers.get("parcels");
  const parcels = Array.from({ length: layer?.count ?? 0 }, (_, i) => parcelFromFeature(demo, i));
  withoutColumn = await lotsPackWithout(parcels, context, () => false, {
    id: demo.id,
    version: "neighbours",
    pageBytes: 32 * 1024,
  });
  org = await withDb((db) => createTeamOrg(db, { credits: 0 }));
}, 120_000);

afterAll(async () => {
  await env.PACKS.delete([WITH, WITHOUT, REGISTRY_KEY]);
  await putDemoPacks();
  resetPublicPacks();
});

async function assemble(body: unknown): Promise<unknown[]> {
  const pages: unknown[] = [];
  let cursor: string | null = null;
  do {
    const res = await SELF.fetch("https://api.test/sites/assemble", {
      method: "POST",
      headers: { ...bearer(org.users.member.token), "content-type": "application/json" },
      body: JSON.stringify({ ...(body as object), limit: 10, ...(cursor ? { cursor } : {}) }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = await res.json<{ next_cursor: string | null }>();
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

describe("POST /sites/assemble with the pack's precomputed adjacency", () => {
  it("answers the same groups, isolated neighbours and cursors as the same lots without the neighbours column", async () => {
    expect(await columnsOf(WITH, withColumn)).toContain(NEIGHBOURS_COLUMN.name);
    expect(await columnsOf(WITHOUT, withoutColumn)).not.toContain(NEIGHBOURS_COLUMN.name);
    const asks = [
      {
        area: { suburb: "Epping" },
        filters: { zones: ["R2"], area_m2: { min: 400 } },
        target: { min_area_m2: 1500, max_lots: 3 },
      },
      { area: { suburb: "Epping" }, target: { min_area_m2: 2000, max_lots: 4 }, sort: "area" },
    ];
    for (const ask of asks) {
      await publish(WITH, withColumn);
      const stored = await assemble(ask);
      await publish(WITHOUT, withoutColumn);
      const measured = await assemble(ask);
      const first = stored[0] as { count: number; groups: { isolated: unknown[] }[] };
      expect(first.count).toBeGreaterThan(2);
      expect(stored).toEqual(measured);
    }
  }, 180_000);
});
