// Crafted v2 objects (every checksum valid) through the real app and R2 (issue 47, finding 4): a public pack whose
// root lacks a field or claims 60,000 empty pages, and an organisation's pack whose root is refused, are each a 503
// naming the pack on every route that reads it, never a 500, a misleading 404/422, or an answer silently without it.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { privateKey } from "../../../src/packs/private/store.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { tileOf } from "../../../src/tiles/math.ts";
import { type Crafted, pageStart, putTogether, takeApart } from "../../support/crafted-pack.ts";
import { demoPackBytes } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

const KEY = "public/sydney-demo@hostile.pack";
let org: TestOrg;
let built: Uint8Array;
let lot: { lng: number; lat: number };

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  built = await convertToLotsPack({ ...demo, version: "hostile" }, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  const p = parcelFromFeature(demo, 100);
  lot = { lng: p.centroid[0], lat: p.centroid[1] };
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
}, 120_000);

async function publish(object: Uint8Array): Promise<void> {
  const listed = await env.PACKS.list({ prefix: "public/" });
  await env.PACKS.delete([...listed.objects.map((o) => o.key), REGISTRY_KEY]);
  await env.PACKS.put(KEY, object);
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": KEY } }));
  resetPublicPacks();
}

// The built pack with its root changed by `edit`, every checksum re-sealed.
function crafted(edit: (c: Crafted) => { pageCount?: number; featureCount?: number } | undefined): Uint8Array {
  const c = takeApart(built);
  const header = edit(c);
  return putTogether(c, { header });
}

function withoutColumns(c: Crafted): undefined {
  delete c.meta.columns;
  return undefined;
}

// 60,000 pages of no bytes over the pack's area, the last holding every page's bytes so the total still matches.
function zeroLengthPages(c: Crafted) {
  const n = 60_000;
  const real = pageStart(c, c.header.pageCount);
  const zb = Math.ceil((c.meta.zoneDict as string[]).length / 8);
  const box = Array.from(c.tables.boxes.subarray(0, 4));
  c.tables.lengths = new Uint32Array(n);
  c.tables.lengths[n - 1] = real;
  c.tables.crcs = new Uint32Array(n);
  c.tables.counts = new Uint32Array(n).fill(1);
  c.tables.boxes = Int32Array.from({ length: 4 * n }, (_, k) => box[k % 4] as number);
  c.tables.max = c.tables.max.map(() => new Float32Array(n));
  c.tables.flags = new Uint8Array(n);
  c.tables.zoneBits = new Uint8Array(n * zb);
  return { pageCount: n, featureCount: n };
}

const call = (path: string, init: RequestInit = {}, token = org.users.member.token) =>
  SELF.fetch(`https://api.test${path}`, { ...init, headers: { ...bearer(token), ...init.headers } });

const search = (token?: string) =>
  call(
    "/sites/search",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ area: { bbox: [lot.lng - 0.002, lot.lat - 0.002, lot.lng + 0.002, lot.lat + 0.002] } }),
    },
    token,
  );

async function expect503(res: Response, pack: string, what: string): Promise<void> {
  const body = await res.text();
  expect(res.status, `${what}: ${body}`).toBe(503);
  expect((JSON.parse(body) as { detail: string }).detail, what).toMatch(new RegExp(`^Pack ${pack} unavailable: `));
}

describe("a crafted public v2 pack", () => {
  it.each([
    ["a root without meta.columns", withoutColumns],
    ["60,000 zero-length pages", zeroLengthPages],
  ])("%s: parcels, site search, TileJSON and a tile are each a 503 naming the pack", async (_, edit) => {
    await publish(crafted(edit));
    const t = tileOf(lot.lng, lot.lat, 15);
    await expect503(await call(`/parcels?lng=${lot.lng}&lat=${lot.lat}`), "sydney-demo", "parcels");
    await expect503(await search(), "sydney-demo", "site search");
    await expect503(await call("/tiles/sydney-demo.json"), "sydney-demo", "TileJSON");
    await expect503(await call(`/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt`), "sydney-demo", "tile");
    // The pack as built answers again once it is published.
    await publish(built);
    expect((await call(`/parcels?lng=${lot.lng}&lat=${lot.lat}`)).status).toBe(200);
  });
});

describe("an organisation's v2 pack whose root is refused", () => {
  it("is a 503 naming it for that organisation, not silently absent; its pack list still answers", async () => {
    await publish(built);
    const own = await withDb((db) => createTeamOrg(db, { credits: 5 }));
    await env.PACKS.put(privateKey(own.orgId, "broken-lots"), crafted(withoutColumns));
    const token = own.users.member.token;
    await expect503(await call(`/parcels?lng=${lot.lng}&lat=${lot.lat}`, {}, token), "broken-lots", "parcels");
    await expect503(await search(token), "broken-lots", "site search");
    await expect503(await call("/tiles/broken-lots.json", {}, token), "broken-lots", "TileJSON");
    expect((await call("/packs", {}, token)).status).toBe(200);
    // Another organisation does not see it, and is answered.
    expect((await call(`/parcels?lng=${lot.lng}&lat=${lot.lat}`)).status).toBe(200);
  });
});
