// Private packs under hostile load, through the real app: packs far past the 32 MiB an RPC carries, the
// database down on private-pack reads, uploads racing for the last slots, and a 5,000-character file name.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { membershipCache } from "../../../src/orgs/membership-cache.ts";
import { PRIVATE_LICENCE, attributionOf, packMetadata } from "../../../src/packs/private/custom-meta.ts";
import { privateKey } from "../../../src/packs/private/store.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";
import { type LotGrid, lotCentre, lotId, lotSquare, lotsGeoJson } from "../../hostile/lots.ts";
import { bearer } from "../../support/tokens.ts";
import { fetchWith } from "../helpers/app.ts";
import { databaseDown } from "../helpers/faults.ts";
import { untilBuilt } from "../helpers/pack-builds.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";

type Listed = { id: string; private: boolean; features: number; title: string; upload: { source: string } | null };

const newOrg = (): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { idpUsers: false }));
const get = (path: string, token: string) => SELF.fetch(`https://api.test${path}`, { headers: bearer(token) });
const del = (packId: string, token: string) =>
  SELF.fetch(`https://api.test/packs/${packId}`, { method: "DELETE", headers: bearer(token) });
const stored = async (orgId: string) => (await env.PACKS.list({ prefix: `orgs/${orgId}/` })).objects.length;

function upload(token: string, file: Blob, { name = "Lots", fileName = "lots.geojson" } = {}): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([file], fileName));
  form.set("name", name);
  form.set("layer", "lots");
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(token), body: form });
}

/** GET /parcels at lot `i` of `grid` answers 200 from pack `packId`, with that lot. */
async function expectParcel(token: string, grid: LotGrid, tag: string, i: number, packId: string): Promise<void> {
  const [lng, lat] = lotCentre(grid, i);
  const res = await get(`/parcels?lng=${lng}&lat=${lat}`, token);
  expect(res.status, `lot ${i} of ${tag}`).toBe(200);
  expect(await res.json()).toMatchObject({ pack_id: packId, lot_id: lotId(tag, i) });
}

// Each upload of 80,000 lots takes 6-20 s in workerd (2 shared cores), and is then built by the queue: these two
// tests get minutes, not the default minute.
describe("packs past the 32 MiB one RPC carries", () => {
  it("three uploads of 80,000 lots (36 MiB of packs): built by the queue, listed, answering parcels and tiles, deleted", {
    timeout: 480_000,
  }, async () => {
    const org = await newOrg();
    const grids = [0, 1, 2].map((k): LotGrid => ({ west: 141.1 + k * 0.1, south: -31.5, columns: 400 }));
    const ids: string[] = [];
    for (const [k, grid] of grids.entries()) {
      const file = lotsGeoJson(80_000, grid, `DP8${k}`);
      expect(file.size).toBeLessThan(25 * 1024 * 1024);
      const res = await upload(org.users.owner.token, file, { name: `Lots ${k}` });
      expect(res.status, `upload ${k}`).toBe(202);
      ids.push((await res.json<{ pack_id: string }>()).pack_id);
    }
    for (const id of ids)
      expect(await untilBuilt(id, org.users.member.token, 400_000)).toMatchObject({ state: "ready" });
    const listed = await get("/packs", org.users.member.token);
    expect(listed.status).toBe(200);
    const mine = (await listed.json<Listed[]>()).filter((p) => p.private);
    expect(mine.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect(mine.every((p) => p.features === 80_000)).toBe(true);
    for (const [k, grid] of grids.entries()) {
      await expectParcel(org.users.member.token, grid, `DP8${k}`, 79_999, ids[k] ?? "");
      expect((await get(`/tiles/${ids[k]}.json`, org.users.member.token)).status).toBe(200);
    }
    for (const id of ids) expect((await del(id, org.users.owner.token)).status).toBe(204);
    const after = await (await get("/packs", org.users.member.token)).json<Listed[]>();
    expect(after.filter((p) => p.private)).toEqual([]);
  });

  // 250,000 lots as GeoJSON are 50 MiB, twice the upload limit; as a v1 pack (uploads before issue 48, still in R2)
  // they are 37 MiB, stored here as such an upload was. The v1 reader serves it while the queue converts it.
  it("one v1 pack of 250,000 lots (37 MiB): listed, answering parcels, deleted", { timeout: 180_000 }, async () => {
    const org = await newOrg();
    const grid: LotGrid = { west: 141.6, south: -31.5, columns: 500 };
    const builder = new UploadLayerBuilder("parcels", null);
    for (let i = 0; i < 250_000; i++) {
      const [w, s, e, n] = lotSquare(grid, i);
      const ring = [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ];
      builder.add({
        geometry: { type: "Polygon", coordinates: [ring] },
        properties: { lotidstring: lotId("DP25", i) },
      });
    }
    const id = crypto.randomUUID();
    const version = "20260101T000000Z";
    const upload = {
      layer: "parcels",
      uploaded_by: org.users.owner.email,
      uploaded_at: "2026-01-01T00:00:00.000Z",
      source: "big.geojson",
    };
    const bytes = encodePack({
      id,
      version,
      meta: { title: "Big", attribution: attributionOf(upload.uploaded_by), licence: PRIVATE_LICENCE, upload },
      layers: [builder.finish()],
      order: "index",
    });
    expect(bytes.byteLength).toBeGreaterThan(32 * 1024 * 1024);
    const { bbox } = decodePack(bytes);
    const meta = packMetadata({ packId: id, version, name: "Big", kind: "polygon", features: 250_000, bbox, upload });
    await env.PACKS.put(privateKey(org.orgId, id), bytes, { customMetadata: meta });

    const listed = await get("/packs", org.users.member.token);
    expect(listed.status).toBe(200);
    expect((await listed.json<Listed[]>()).find((p) => p.id === id)).toMatchObject({
      private: true,
      features: 250_000,
    });
    await expectParcel(org.users.member.token, grid, "DP25", 0, id);
    await expectParcel(org.users.member.token, grid, "DP25", 249_999, id);
    expect((await del(id, org.users.owner.token)).status).toBe(204);
    expect(await stored(org.orgId)).toBe(0);
  });
});

describe("the database down on private-pack reads", () => {
  it("GET /packs, GET /parcels and GET /tiles/{private pack} are 503 Service unavailable, not answers without the pack", async () => {
    const org = await newOrg();
    const grid: LotGrid = { west: 142.5, south: -31.5, columns: 10 };
    const res = await upload(org.users.owner.token, lotsGeoJson(20, grid, "DP77"));
    expect(res.status).toBe(201);
    const { pack_id: id } = await res.json<{ pack_id: string }>();
    const [lng, lat] = lotCentre(grid, 3);
    const paths = ["/packs", `/parcels?lng=${lng}&lat=${lat}`, `/tiles/${id}.json`, `/tiles/${id}/14/14811/9729.mvt`];
    // An isolate that has not seen this user: the membership must come from the database, which is down.
    membershipCache.forget(org.users.member.userId);
    const down = databaseDown(env);
    for (const path of paths) {
      const answer = await fetchWith(down, path, { headers: bearer(org.users.member.token) });
      expect(answer.status, path).toBe(503);
      expect(await answer.json(), path).toEqual({ detail: "Service unavailable" });
    }
    // With the database back, the same reads find the pack.
    expect((await get(`/parcels?lng=${lng}&lat=${lat}`, org.users.member.token)).status).toBe(200);
  });
});

describe("the 20-pack limit under concurrency", () => {
  it("25 uploads at once into an empty organisation store exactly 20 and answer exactly five 409s", async () => {
    const org = await newOrg();
    // 2,000 lots: enough for the uploads to interleave while they read and build (3 lots never race).
    const file = lotsGeoJson(2_000, { west: 143, south: -31.5, columns: 50 }, "DP5");
    const statuses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        upload(org.users.owner.token, file, { name: `Pack ${i}` }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await stored(org.orgId)).toBe(20);
    const stub = env.PRIVATE_PACKS.get(env.PRIVATE_PACKS.idFromName(org.orgId));
    expect((await stub.stats()).slots).toBe(0);
  });
});

describe("free strings of an upload", () => {
  it("a 5,000-character file name is stored cut to 255 characters on a character boundary, with an ellipsis", async () => {
    const org = await newOrg();
    // Two UTF-16 units a character: cutting by units would split one in half.
    const fileName = `x${"📦".repeat(4_999)}.geojson`;
    const res = await upload(org.users.owner.token, lotsGeoJson(2, { west: 143.5, south: -31.5, columns: 2 }, "DP6"), {
      fileName,
    });
    expect(res.status).toBe(201);
    const { pack_id: id } = await res.json<{ pack_id: string }>();
    const listed = (await (await get("/packs", org.users.member.token)).json<Listed[]>()).find((p) => p.id === id);
    const source = listed?.upload?.source ?? "";
    expect(Array.from(source)).toHaveLength(255);
    expect(source).toBe(`${Array.from(fileName).slice(0, 254).join("")}…`);
    expect(() => encodeURIComponent(source)).not.toThrow();
    const head = await env.PACKS.head(`orgs/${org.orgId}/${id}.pack`);
    expect(head?.customMetadata?.source).toBe(source);

    // The pack's name is bounded too (200 characters): one over is refused and stores nothing.
    const long = await upload(org.users.owner.token, lotsGeoJson(2, { west: 143.6, south: -31.5, columns: 2 }, "DP6"), {
      name: "n".repeat(201),
    });
    expect(long.status).toBe(422);
    expect(await stored(org.orgId)).toBe(1);
  });
});
