// POST/GET/DELETE /packs through the real app: real suburbs reprojected to MGA zone 56, R2 and the cache Durable Object.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { MemorySource, PageCache, PagedPack, PAGED_VERSION, readWhole } from "../../src/packs/paged/index.ts";
import { bearer } from "../support/tokens.ts";
import { type TestOrg, createTeamOrg, withDb } from "./helpers/billing.ts";

const fx = inject("uploadFixtures");
const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

function upload(
  token: string,
  body: string | Uint8Array,
  { name = "My layer", layer = "suburbs", fileName = "data.geojson", fields }: Record<string, string | undefined> = {},
): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([body], fileName));
  form.set("name", name);
  form.set("layer", layer);
  if (fields) form.set("fields", fields);
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(token), body: form });
}

const get = (path: string, token: string) => SELF.fetch(`https://api.test${path}`, { headers: bearer(token) });
const del = (packId: string, token: string) =>
  SELF.fetch(`https://api.test/packs/${packId}`, { method: "DELETE", headers: bearer(token) });
const stored = async (orgId: string) => (await env.PACKS.list({ prefix: `orgs/${orgId}/` })).objects.map((o) => o.key);

type Uploaded = { pack_id: string; name: string; version: string; layers: string[]; features: number; bbox: number[] };

let a: TestOrg;
let b: TestOrg;
beforeAll(async () => {
  [a, b] = await withDb(async (db) => [
    await createTeamOrg(db, { idpUsers: false }),
    await createTeamOrg(db, { idpUsers: false }),
  ]);
});

/** Largest distance in metres from a stored vertex of each suburb to the nearest vertex of its WGS84 original. */
async function worstDistanceM(orgId: string, packId: string): Promise<{ worst: number; compared: number }> {
  const obj = await env.PACKS.get(`orgs/${orgId}/${packId}.pack`);
  if (!obj) throw new Error("pack not stored");
  const bytes = new Uint8Array(await obj.arrayBuffer());
  // Stored as v2 (a pack of layers, read whole), never as the v1 pack it was built as.
  expect(new DataView(bytes.buffer).getUint16(4, true)).toBe(PAGED_VERSION);
  const reader = new PagedPack(new MemorySource(`test:${packId}`, bytes), { cache: new PageCache(1 << 24) });
  const layer = (await readWhole(reader)).layers.get("suburbs");
  if (!layer) throw new Error("no suburbs layer");
  const originals = new Map<string, number[][]>();
  for (const f of JSON.parse(fx.wgs84).features as {
    properties: { sal_code: string };
    geometry: { type: string; coordinates: unknown };
  }[]) {
    originals.set(
      f.properties.sal_code,
      (f.geometry.coordinates as number[][][][] | number[][][]).flat(
        f.geometry.type === "Polygon" ? 1 : 2,
      ) as number[][],
    );
  }
  let worst = 0;
  let compared = 0;
  for (let i = 0; i < layer.count; i++) {
    const original = originals.get(String(layer.props(i).sal_code));
    if (!original) throw new Error(`feature ${i} has no original`);
    const v0 = layer.ringOffsets[layer.polyOffsets[layer.featureOffsets[i] as number] as number] as number;
    const v1 = layer.ringOffsets[layer.polyOffsets[layer.featureOffsets[i + 1] as number] as number] as number;
    for (let v = v0; v < v1; v++) {
      const lon = layer.coords[2 * v] as number;
      const lat = layer.coords[2 * v + 1] as number;
      let best = Infinity;
      for (const [x, y] of original as [number, number][]) {
        const dx = (x - lon) * 111_320 * Math.cos((lat * Math.PI) / 180);
        const dy = (y - lat) * 110_574;
        best = Math.min(best, Math.hypot(dx, dy));
      }
      worst = Math.max(worst, best);
      compared++;
    }
  }
  return { worst, compared };
}

describe("POST /packs reprojects real data from MGA zone 56", () => {
  it("a GeoJSON in MGA zone 56 (crs member) lands within a metre of the WGS84 original, and GET /packs lists it", async () => {
    const res = await upload(a.users.owner.token, fx.geojsonMga56, { name: "Suburbs (GeoJSON)" });
    expect(res.status).toBe(201);
    const body = await res.json<Uploaded>();
    expect(body).toMatchObject({ name: "Suburbs (GeoJSON)", layers: ["suburbs"], features: 40 });
    const [w, s, e, n] = body.bbox as [number, number, number, number];
    expect(w).toBeGreaterThan(150.5);
    expect(e).toBeLessThan(151.5);
    expect(s).toBeGreaterThan(-34.2);
    expect(n).toBeLessThan(-33.5);
    const { worst, compared } = await worstDistanceM(a.orgId, body.pack_id);
    expect(compared).toBeGreaterThan(500);
    expect(worst).toBeLessThan(1);

    const list = await (await get("/packs", a.users.member.token)).json<
      { id: string; private: boolean; features: number; size: number; upload: Record<string, string> | null }[]
    >();
    const mine = list.find((p) => p.id === body.pack_id);
    expect(mine).toMatchObject({ private: true, features: 40, title: "Suburbs (GeoJSON)", version: body.version });
    expect(mine?.size).toBeGreaterThan(0);
    expect(mine?.upload).toMatchObject({ layer: "suburbs", uploaded_by: a.users.owner.email, source: "data.geojson" });
    expect(Date.parse(mine?.upload?.uploaded_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(list.filter((p) => !p.private).length).toBeGreaterThanOrEqual(0);
    expect(await del(body.pack_id, a.users.owner.token)).toHaveProperty("status", 204);
  });

  it("a zipped Shapefile in MGA zone 56 (.prj) lands within a metre of the WGS84 original", async () => {
    const res = await upload(a.users.admin.token, fromBase64(fx.shapefileMga56), { fileName: "suburbs.zip" });
    expect(res.status).toBe(201);
    const body = await res.json<Uploaded>();
    expect(body.features).toBe(40);
    const { worst, compared } = await worstDistanceM(a.orgId, body.pack_id);
    expect(compared).toBeGreaterThan(500);
    expect(worst).toBeLessThan(1);
    expect(await del(body.pack_id, a.users.admin.token)).toHaveProperty("status", 204);
  });
});

describe("POST /packs refuses what it cannot trust, and stores nothing", () => {
  it("a Shapefile with no .prj is 422 saying so", async () => {
    const before = await stored(a.orgId);
    const res = await upload(a.users.owner.token, fromBase64(fx.shapefileNoPrj), { fileName: "suburbs.zip" });
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string; type: string }[] }>();
    expect(detail[0]?.msg).toMatch(/no \.prj beside suburbs\.shp/);
    expect(detail[0]?.type).toBe("unknown_projection");
    expect(await stored(a.orgId)).toEqual(before);
  });

  it("projected coordinates without a crs are 422 naming the feature's index", async () => {
    const plain = JSON.parse(fx.geojsonMga56) as { crs?: unknown };
    delete plain.crs;
    const res = await upload(a.users.owner.token, JSON.stringify(plain));
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string }[] }>();
    expect(detail[0]?.loc).toEqual(["body", "file", "features", 0]);
    expect(detail[0]?.msg).toMatch(/^Feature 0: coordinate \[.*outside longitude\/latitude range/);
  });

  it("an unclosed ring is 422 naming its feature", async () => {
    const fc = JSON.parse(fx.lots) as { features: { geometry: { coordinates: number[][][] } }[] };
    fc.features[7]?.geometry.coordinates[0]?.pop();
    fc.features[7]?.geometry.coordinates[0]?.push([150, -33], [150.0001, -33]);
    const res = await upload(a.users.owner.token, JSON.stringify(fc), { layer: "lots" });
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string }[] }>();
    expect(detail[0]?.loc).toEqual(["body", "file", "features", 7]);
    expect(detail[0]?.msg).toMatch(/^Feature 7: a ring is not closed/);
  });

  it("a self-intersecting (bowtie) lot is 422 naming its feature, and nothing is stored", async () => {
    const before = await stored(a.orgId);
    const fc = JSON.parse(fx.lots) as { features: { geometry: { coordinates: number[][][] } }[] };
    const ring = fc.features[12]?.geometry.coordinates[0] as number[][];
    // Swapping two corners of the square makes its edges cross: a bowtie.
    [ring[1], ring[2]] = [ring[2] as number[], ring[1] as number[]];
    const res = await upload(a.users.owner.token, JSON.stringify(fc), { layer: "lots" });
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: unknown[]; msg: string; type: string }[] }>();
    expect(detail[0]?.loc).toEqual(["body", "file", "features", 12]);
    expect(detail[0]?.msg).toMatch(/^Feature 12: .*(cross|intersect)/i);
    expect(detail[0]?.type).toBe("invalid_geometry");
    expect(await stored(a.orgId)).toEqual(before);
  });

  it("a file over 25 MiB is 413", async () => {
    const before = await stored(a.orgId);
    const big = new Uint8Array(26 * 1024 * 1024).fill(0x20);
    const res = await upload(a.users.owner.token, big);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "The upload is larger than 25 MiB" });
    expect(await stored(a.orgId)).toEqual(before);
  });

  it("a member is 403 and stores nothing; an unknown layer is 422", async () => {
    const before = await stored(a.orgId);
    const res = await upload(a.users.member.token, fx.lots, { layer: "lots" });
    expect(res.status).toBe(403);
    expect(await stored(a.orgId)).toEqual(before);
    const bad = await upload(a.users.owner.token, fx.lots, { layer: "roads" });
    expect(bad.status).toBe(422);
    expect((await bad.json<{ detail: { loc: unknown[] }[] }>()).detail[0]?.loc).toEqual(["body", "layer"]);
  });
});

describe("an organisation's pack is its own, at once", () => {
  it("parcels and tiles use the uploaded lots for its organisation only; delete is seen at once", async () => {
    const res = await upload(a.users.admin.token, fx.lots, { layer: "lots", name: "Site list" });
    expect(res.status).toBe(201);
    const { pack_id: packId } = await res.json<Uploaded>();
    const lot = encodeURIComponent("17//DP900016");
    // Seen at once: no waiting for the cache's 5-minute expiry.
    const mine = await get(`/parcels?lot_id=${lot}`, a.users.member.token);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ pack_id: packId, lot_id: "17//DP900016" });
    expect((await get(`/tiles/${packId}.json`, a.users.member.token)).status).toBe(200);
    const tile = await get(`/tiles/${packId}/15/29905/19686.mvt`, a.users.member.token);
    expect([200, 204]).toContain(tile.status);

    expect((await get(`/parcels?lot_id=${lot}`, b.users.owner.token)).status).toBe(404);
    const theirs = await get(`/tiles/${packId}.json`, b.users.owner.token);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ detail: "Pack not found" });
    const listed = await (await get("/packs", b.users.owner.token)).json<{ id: string }[]>();
    expect(listed.map((p) => p.id)).not.toContain(packId);
    expect((await del(packId, b.users.owner.token)).status).toBe(404);
    expect((await del(packId, a.users.member.token)).status).toBe(403);

    expect((await del(packId, a.users.owner.token)).status).toBe(204);
    expect((await get(`/tiles/${packId}/15/29905/19686.mvt`, a.users.member.token)).status).toBe(404);
    expect((await get(`/parcels?lot_id=${lot}`, a.users.member.token)).status).toBe(404);
    expect(await stored(a.orgId)).not.toContain(`orgs/${a.orgId}/${packId}.pack`);
    expect((await del(packId, a.users.owner.token)).status).toBe(404);
  });

  it("an upload and a delete evict the organisation's cached packs in the Durable Object at once", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const stub = env.PRIVATE_PACKS.get(env.PRIVATE_PACKS.idFromName(org.orgId));
    expect(await stub.getPacks(org.orgId)).toHaveLength(0);
    expect((await stub.stats()).cached).toBe(true);
    const res = await upload(org.users.owner.token, fx.lots, { layer: "lots" });
    expect((await stub.stats()).cached).toBe(false);
    expect(await stub.getPacks(org.orgId)).toHaveLength(1);
    expect((await del((await res.json<Uploaded>()).pack_id, org.users.owner.token)).status).toBe(204);
    expect((await stub.stats()).cached).toBe(false);
    expect(await stub.getPacks(org.orgId)).toHaveLength(0);
  });

  it("the 21st private pack is 409 and stores nothing", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    for (let i = 0; i < 20; i++) {
      const res = await upload(org.users.owner.token, fx.lots, { layer: "lots", name: `Pack ${i}` });
      expect(res.status, `pack ${i}`).toBe(201);
    }
    const res = await upload(org.users.owner.token, fx.lots, { layer: "lots", name: "One too many" });
    expect(res.status).toBe(409);
    expect((await res.json<{ detail: string }>()).detail).toMatch(/already has 20 private packs/);
    expect(await stored(org.orgId)).toHaveLength(20);
  });
});
