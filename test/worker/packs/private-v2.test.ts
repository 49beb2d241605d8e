// Uploaded lots are stored as v2 lots packs (docs/design.md section 10) and read by range, private first: through the
// real app with R2 and the pack Durable Object, over a public v2 lots pack that has no overlay outlines (the dev world).
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import { featureLabelPoint } from "../../../src/geo/label-point.ts";
import { logger } from "../../../src/logger.ts";
import { pointArea } from "../../../src/packs/request-pages.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { loadPrivatePacks } from "../../../src/packs/private/load.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { PackBindings } from "../../../src/packs/types.ts";
import { visiblePacks } from "../../../src/packs/visible.ts";
import { demoPackBytes } from "../../support/packs.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { untilBuilt } from "../helpers/pack-builds.ts";

type Uploaded = { pack_id: string; version: string; features: number; size: number };
type Facts = {
  pack_id: string;
  lot_id: string | null;
  area_m2: number;
  zones: { code: string; fsr: number | null; height_m: number | null }[];
  controls: unknown;
  overlays: unknown;
  nearest_stop: unknown;
  demo_data: boolean;
};

const PUBLIC_ID = "sydney-demo";
let a: TestOrg;
let b: TestOrg;
// A public lot's label point (inside it) and its area.
let spot: { lng: number; lat: number; areaM2: number };

function upload(org: TestOrg, features: unknown[], name: string): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([JSON.stringify({ type: "FeatureCollection", features })], "lots.geojson"));
  form.set("name", name);
  form.set("layer", "lots");
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(org.users.owner.token), body: form });
}

const get = (org: TestOrg, path: string) =>
  SELF.fetch(`https://api.test${path}`, { headers: bearer(org.users.member.token) });
const factsAt = async (org: TestOrg, lng: number, lat: number) => {
  const res = await get(org, `/parcels?lng=${lng}&lat=${lat}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Facts>();
};
const magicOf = async (key: string) => {
  const head = await env.PACKS.get(key, { range: { offset: 0, length: 6 } });
  if (!head) return null;
  const bytes = new Uint8Array(await head.arrayBuffer());
  return {
    magic: new TextDecoder().decode(bytes.subarray(0, 4)),
    version: (bytes[4] as number) | ((bytes[5] as number) << 8),
  };
};

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  // The public world: lots only (zones, controls, hazards as columns), no zoning outlines anywhere in R2.
  const lots = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  const listed = await env.PACKS.list({ prefix: "public/" });
  await env.PACKS.delete([...listed.objects.map((o) => o.key), REGISTRY_KEY]);
  await env.PACKS.put(`public/${PUBLIC_ID}.pack`, lots);
  resetPublicPacks();
  const p = parcelFromFeature(demo, 100);
  const [lng, lat] = featureLabelPoint(columnsFromGeometry(p.polygon), 0);
  spot = { lng, lat, areaM2: p.areaM2 };
  [a, b] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
}, 120_000);

describe("an uploaded lots pack is a v2 lots pack", () => {
  it("is stored as v2 (its magic says so), listed from its metadata, and its lot answers with the public lot's zone and controls beneath", async () => {
    const res = await upload(a, [squareLot({ lot_id: "1//DP77" }, spot.lng, spot.lat)], "Site lots");
    expect(res.status, await res.clone().text()).toBe(201);
    const up = await res.json<Uploaded>();
    const key = `orgs/${a.orgId}/${up.pack_id}.pack`;
    expect(await magicOf(key)).toEqual({ magic: "GAPK", version: 2 });
    const head = await env.PACKS.head(key);
    expect(head?.customMetadata).toMatchObject({ format: "2", pack_id: up.pack_id, layer: "parcels", features: "1" });
    expect(up.size).toBe(head?.size);

    const listed = await (await get(a, "/packs")).json<{ id: string; private: boolean; features: number }[]>();
    expect(listed.find((p) => p.id === up.pack_id)).toMatchObject({ private: true, features: 1 });

    const theirs = await factsAt(b, spot.lng, spot.lat);
    expect(theirs.pack_id).toBe(PUBLIC_ID);
    expect(theirs.zones.length).toBeGreaterThan(0);
    const mine = await factsAt(a, spot.lng, spot.lat);
    // The organisation's own lot (private first), with its own id and area ...
    expect(mine.pack_id).toBe(up.pack_id);
    expect(mine.lot_id).toBe("1//DP77");
    expect(mine.area_m2).toBeLessThan(60);
    expect(mine.area_m2).toBeLessThan(spot.areaM2);
    // ... and the planning facts of the public lot beneath, as there are no overlay outlines to cut it against.
    expect(mine.zones.map((z) => ({ code: z.code, fsr: z.fsr, height_m: z.height_m }))).toEqual(
      theirs.zones.map((z) => ({ code: z.code, fsr: z.fsr, height_m: z.height_m })),
    );
    expect(mine.controls).toEqual(theirs.controls);
    expect(mine.overlays).toEqual(theirs.overlays);
    expect(mine.nearest_stop).toEqual(theirs.nearest_stop);
    expect(mine.demo_data).toBe(theirs.demo_data);

    // Found by its lot id (the v2 lot-id index), and drawn as tiles for its organisation only.
    const byId = await get(a, `/parcels?lot_id=${encodeURIComponent("1//DP77")}`);
    expect(await byId.json()).toMatchObject({ pack_id: up.pack_id, lot_id: "1//DP77" });
    expect((await get(b, `/parcels?lot_id=${encodeURIComponent("1//DP77")}`)).status).toBe(404);
    const tj = await get(a, `/tiles/${up.pack_id}.json`);
    expect(tj.status).toBe(200);
    expect((await tj.json<{ tiles: string[] }>()).tiles[0]).toContain(up.pack_id);
    const z = 17;
    const x = Math.floor(((spot.lng + 180) / 360) * 2 ** z);
    const r = (spot.lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    const tile = await get(a, `/tiles/${up.pack_id}/${z}/${x}/${y}.mvt`);
    expect(tile.status).toBe(200);
    expect((await tile.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await get(b, `/tiles/${up.pack_id}.json`)).status).toBe(404);
  }, 90_000);

  it("a re-upload under the same name is served at once, never the old version; a delete stops it being served", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const first = await (
      await upload(org, [squareLot({ lot_id: "5//DP55" }, spot.lng, spot.lat)], "Mine")
    ).json<Uploaded>();
    expect((await factsAt(org, spot.lng, spot.lat)).lot_id).toBe("5//DP55");
    const res = await upload(org, [squareLot({ lot_id: "6//DP66" }, spot.lng, spot.lat)], "Mine");
    expect(res.status, await res.clone().text()).toBe(201);
    const second = await res.json<Uploaded>();
    expect(second.pack_id).toBe(first.pack_id);
    expect(second.version > first.version).toBe(true);
    // Both versions kept under versions/, both v2.
    for (const v of [first.version, second.version]) {
      expect(await magicOf(`versions/orgs/${org.orgId}/${first.pack_id}@${v}.pack`)).toEqual({
        magic: "GAPK",
        version: 2,
      });
    }
    const now = await factsAt(org, spot.lng, spot.lat);
    expect(now).toMatchObject({ pack_id: first.pack_id, lot_id: "6//DP66" });
    expect(now.zones.length).toBeGreaterThan(0);
    expect((await get(org, `/parcels?lot_id=${encodeURIComponent("5//DP55")}`)).status).toBe(404);

    const gone = await SELF.fetch(`https://api.test/packs/${first.pack_id}`, {
      method: "DELETE",
      headers: bearer(org.users.owner.token),
    });
    expect(gone.status).toBe(204);
    expect((await factsAt(org, spot.lng, spot.lat)).pack_id).toBe(PUBLIC_ID);
    expect((await get(org, `/parcels?lot_id=${encodeURIComponent("6//DP66")}`)).status).toBe(404);
    expect((await get(org, `/tiles/${first.pack_id}.json`)).status).toBe(404);
  }, 90_000);

  it("is read by range, never whole: its root and the pages under a point, of a pack of many pages", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    // 12,000 lots of 4 m, far from the public lots: many pages.
    const lots = Array.from({ length: 12_000 }, (_, i) =>
      squareLot(
        { lot_id: `${i + 1}//DP4242` },
        151.5 + (i % 120) * 0.0001,
        -34.5 + Math.floor(i / 120) * 0.0001,
        0.00002,
      ),
    );
    const res = await upload(org, lots, "Many");
    // More than 5,000 lots: built by the queue, then read like any other.
    expect(res.status).toBe(202);
    const up = await res.json<Uploaded>();
    expect(await untilBuilt(up.pack_id, org.users.member.token)).toMatchObject({ state: "ready" });
    const key = `orgs/${org.orgId}/${up.pack_id}.pack`;
    const size = (await env.PACKS.head(key))?.size ?? 0;
    const reads: { key: string; range: boolean; bytes: number }[] = [];
    const bucket = new Proxy(env.PACKS, {
      get(target, prop) {
        if (prop !== "get") return Reflect.get(target, prop).bind(target);
        return async (k: string, opts?: R2GetOptions) => {
          const obj = await target.get(k, opts);
          const range = opts?.range as { offset?: number; length?: number } | undefined;
          if (k === key && obj) {
            const from = range?.offset ?? 0;
            const bytes = Math.min(range?.length ?? obj.size, obj.size - from);
            reads.push({ key: k, range: range !== undefined, bytes: "body" in obj ? bytes : 0 });
          }
          return obj;
        };
      },
    });
    const bindings: PackBindings = { PACKS: bucket, PRIVATE_PACKS: env.PRIVATE_PACKS };
    const mine = await loadPrivatePacks(bindings, org.orgId, logger);
    expect(mine.packs).toEqual([]);
    expect(mine.paged).toHaveLength(1);
    const pages = (await mine.paged[0]?.snapshot())?.root.pageCount ?? 0;
    expect(pages).toBeGreaterThan(2);
    const packs = await visiblePacks(bindings, "public/", org.orgId, logger, [pointArea(151.50001, -34.49999)]);
    const own = packs.filter((p) => p.id === up.pack_id);
    expect(own).toHaveLength(1);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.range)).toBe(true);
    const bytes = reads.reduce((n, r) => n + r.bytes, 0);
    expect(bytes).toBeLessThan(size);
    // The first read (header and root, 256 KiB) and the page under the point: 2 reads of 9 pages, 302 of 414 KB here.
    expect(reads.length).toBeLessThanOrEqual(3);
  }, 120_000);
});
