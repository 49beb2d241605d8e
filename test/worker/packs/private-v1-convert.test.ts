// Issue 48 (one pack model) in workerd: an organisation's pack still stored as v1 is served by the v1 reader and, when
// read, asks the pack-build queue to store it as v2 under the same key, id and version, with no publish (alerts do not
// fire on a format change); a pack replaced or deleted before the job runs is left as it is. The queue handler is run
// on each message as the Queues runtime would, with queues that keep what they are sent.
import { heldQueue } from "../../support/held-queue.ts";
import { SELF, createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PACK_BUILDS_QUEUE } from "../../../src/assess/pack-build-queue.ts";
import worker from "../../../src/index.ts";
import { PAGED_VERSION } from "../../../src/packs/paged/index.ts";
import { PACK_CONVERT_MESSAGE, convertMessage, readConvertMessage } from "../../../src/packs/private/build-state.ts";
import { convertV1Pack } from "../../../src/packs/private/convert-v1.ts";
import { PRIVATE_LICENCE, attributionOf, packMetadata } from "../../../src/packs/private/custom-meta.ts";
import { loadPrivatePacks } from "../../../src/packs/private/load.ts";
import { privateKey } from "../../../src/packs/private/store.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import type { PackBindings } from "../../../src/packs/types.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import type { LayerName } from "../../../src/packs/upload/layer-specs.ts";
import { readGeoJson } from "../../../src/packs/upload/read-geojson.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { putDemoPacks, squareSuburb } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";

type Listed = { id: string; version: string; private?: boolean; features: number; state: string };
type Facts = { pack_id: string; lot_id: string | null; area_m2: number; zones: { code: string; share: number }[] };
type Place = { name: string; pack_id: string; bbox: number[]; center: number[] };

/** Runs the Worker's queue handler on one pack-build message; answers what it acked and what it published. */
async function deliver(body: unknown) {
  const published: unknown[] = [];
  const queued: unknown[] = [];
  const batch = createMessageBatch(PACK_BUILDS_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, PUBLISHES: heldQueue(published), PACK_BUILDS: heldQueue(queued) } as Env);
  return { result: await getQueueResult(batch, ctx), published, queued };
}

/** An upload as stored before issue 48: a v1 pack of one layer with the metadata GET /packs lists it from. */
async function putV1Upload(
  orgId: string,
  packId: string,
  layer: LayerName,
  features: unknown[],
  version = "20260101T000000Z",
) {
  const builder = new UploadLayerBuilder(layer, null);
  await readGeoJson(new Blob([JSON.stringify({ type: "FeatureCollection", features })]).stream(), builder);
  const input = builder.finish();
  const upload = {
    layer,
    uploaded_by: "owner@test.example",
    uploaded_at: "2026-01-01T00:00:00.000Z",
    source: "old.geojson",
  };
  const name = `Old ${layer}`;
  const meta = { title: name, attribution: attributionOf(upload.uploaded_by), licence: PRIVATE_LICENCE, upload };
  const bytes = encodePack({ id: packId, version, meta, layers: [input], order: "index" });
  const { bbox } = decodePack(bytes);
  const kind = input.geometry.kind;
  const count = features.length;
  const key = privateKey(orgId, packId);
  const put = await env.PACKS.put(key, bytes, {
    customMetadata: packMetadata({ packId, version, name, kind, features: count, bbox, upload }),
  });
  return { key, etag: put.etag, version };
}

const formatOf = async (key: string) => {
  const head = await env.PACKS.get(key, { range: { offset: 0, length: 6 } });
  const b = new Uint8Array((await head?.arrayBuffer()) ?? new ArrayBuffer(0));
  return b.length < 6 ? null : (b[4] as number) | ((b[5] as number) << 8);
};

const get = (org: TestOrg, path: string) =>
  SELF.fetch(`https://api.test${path}`, { headers: bearer(org.users.member.token) });
const listed = async (org: TestOrg, id: string) =>
  (await (await get(org, "/packs")).json<Listed[]>()).find((p) => p.id === id);
const lotFacts = async (org: TestOrg, lotId: string) => {
  const res = await get(org, `/parcels?lot_id=${encodeURIComponent(lotId)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Facts>();
};
const place = async (org: TestOrg, suburb: string) => {
  const res = await get(org, `/geocode?suburb=${encodeURIComponent(suburb)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Place>();
};
// The z17 tile holding (lng, lat).
const tileAt = (lng: number, lat: number) => {
  const z = 17;
  const r = (lat * Math.PI) / 180;
  const x = Math.floor(((lng + 180) / 360) * 2 ** z);
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
  return `${z}/${x}/${y}`;
};

/** The organisation's packs read as a request reads them, with a pack-build queue that keeps what it is sent. */
const readWith = (org: TestOrg, sent: unknown[]) => {
  const bindings: PackBindings = { PACKS: env.PACKS, PRIVATE_PACKS: env.PRIVATE_PACKS, PACK_BUILDS: heldQueue(sent) };
  return loadPrivatePacks(bindings, org.orgId);
};

let newtown: [number, number];
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  const org = await withDb((db) => createTeamOrg(db));
  newtown = (await place(org, "Newtown")).center as [number, number];
}, 120_000);

describe("a private v1 pack is converted to v2 by the pack-build queue", () => {
  it("a lots pack: served as v1 and asked once; then stored as a v2 lots pack, same key, id and version, same answers, no publish", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const [lng, lat] = newtown;
    const packId = crypto.randomUUID();
    const lotId = "7//DP7007";
    const v1 = await putV1Upload(org.orgId, packId, "parcels", [squareLot({ lot_id: lotId }, lng, lat)]);
    expect(await formatOf(v1.key)).toBe(1);
    expect(await listed(org, packId)).toMatchObject({
      version: v1.version,
      private: true,
      features: 1,
      state: "ready",
    });

    // Served by the v1 reader, and the conversion asked once for this key and etag, however often it is read.
    const sent: unknown[] = [];
    const first = await readWith(org, sent);
    expect(first.packs.map((p) => p.id)).toEqual([packId]);
    await readWith(org, sent);
    expect(sent).toEqual([
      { type: PACK_CONVERT_MESSAGE, org_id: org.orgId, pack_id: packId, key: v1.key, etag: v1.etag },
    ]);
    const before = await lotFacts(org, lotId);
    expect(before).toMatchObject({ pack_id: packId, lot_id: lotId });
    expect(before.zones.length).toBeGreaterThan(0);
    const tile = `/tiles/${packId}/${tileAt(lng, lat)}.mvt`;
    const tileBefore = await get(org, tile);
    expect(tileBefore.status).toBe(200);
    expect((await tileBefore.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await formatOf(v1.key)).toBe(1);

    const { result, published } = await deliver(sent[0]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    // A format change is no new version: nothing published, no version kept.
    expect(published).toEqual([]);
    expect((await env.PACKS.list({ prefix: `versions/orgs/${org.orgId}/` })).objects).toEqual([]);

    expect(await formatOf(v1.key)).toBe(PAGED_VERSION);
    const head = await env.PACKS.head(v1.key);
    expect(head?.etag).not.toBe(v1.etag);
    expect(head?.customMetadata).toMatchObject({ format: "2", pack_id: packId, version: v1.version, features: "1" });
    expect(await listed(org, packId)).toMatchObject({
      version: v1.version,
      private: true,
      features: 1,
      state: "ready",
    });

    // Read by range now (a lots pack), and nothing more asked.
    const after = await readWith(org, sent);
    expect(after.packs).toEqual([]);
    expect(after.paged).toHaveLength(1);
    expect(sent).toHaveLength(1);
    const facts = await lotFacts(org, lotId);
    expect(facts).toMatchObject({ pack_id: packId, lot_id: lotId });
    expect(facts.area_m2).toBeCloseTo(before.area_m2, 0);
    expect(facts.zones.map((z) => z.code)).toEqual(before.zones.map((z) => z.code));
    const tileAfter = await get(org, tile);
    expect(tileAfter.status).toBe(200);
    expect((await tileAfter.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("a pack of another layer: stored as a v2 pack of layers read whole, same id and version, the same place found", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const packId = crypto.randomUUID();
    const v1 = await putV1Upload(org.orgId, packId, "suburbs", [
      { type: "Feature", ...squareSuburb("Convertbrook", 150.31, -34.31) },
    ]);
    const sent: unknown[] = [];
    expect((await readWith(org, sent)).packs.map((p) => p.id)).toEqual([packId]);
    const before = await place(org, "Convertbrook");
    expect(before.pack_id).toBe(packId);

    const { result, published } = await deliver(sent[0]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(published).toEqual([]);
    expect(await formatOf(v1.key)).toBe(PAGED_VERSION);
    expect((await env.PACKS.head(v1.key))?.customMetadata).toMatchObject({ format: "2", version: v1.version });
    const after = await readWith(org, sent);
    expect(after.paged).toEqual([]);
    expect(after.packs.map((p) => [p.id, p.version])).toEqual([[packId, v1.version]]);
    expect(await listed(org, packId)).toMatchObject({ version: v1.version, features: 1 });
    const now = await place(org, "Convertbrook");
    expect(now.pack_id).toBe(packId);
    expect(now.name).toBe(before.name);
    for (const [k, v] of now.bbox.entries()) expect(v).toBeCloseTo(before.bbox[k] as number, 6);
  });

  it("a pack replaced, or deleted, before the job runs is left as it is", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const packId = crypto.randomUUID();
    const old = await putV1Upload(org.orgId, packId, "suburbs", [
      { type: "Feature", ...squareSuburb("Oldbrook", 150.41, -34.41) },
    ]);
    const sent: unknown[] = [];
    await readWith(org, sent);
    expect(sent).toHaveLength(1);
    const newer = await putV1Upload(
      org.orgId,
      packId,
      "suburbs",
      [{ type: "Feature", ...squareSuburb("Newbrook", 150.41, -34.41) }],
      "20260202T000000Z",
    );
    expect(newer.etag).not.toBe(old.etag);

    const replaced = await deliver(sent[0]);
    expect(replaced.result.explicitAcks).toHaveLength(1);
    expect(replaced.result.retryMessages).toEqual([]);
    expect(replaced.published).toEqual([]);
    expect((await env.PACKS.head(old.key))?.etag).toBe(newer.etag);
    expect(await formatOf(old.key)).toBe(1);

    await env.PACKS.delete(old.key);
    const deleted = await deliver(sent[0]);
    expect(deleted.result.explicitAcks).toHaveLength(1);
    expect(await env.PACKS.head(old.key)).toBeNull();
  });

  it("a pack replaced while it is being converted keeps the newer object: the write is conditional on the etag read", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const packId = crypto.randomUUID();
    const old = await putV1Upload(org.orgId, packId, "suburbs", [
      { type: "Feature", ...squareSuburb("Racebrook", 150.51, -34.51) },
    ]);
    let newer = "";
    // R2 as a concurrent upload sees it: the object replaced just before the conversion writes.
    const racing = new Proxy(env.PACKS, {
      get(target, prop) {
        if (prop !== "put") return Reflect.get(target, prop).bind(target);
        return async (...args: Parameters<R2Bucket["put"]>) => {
          if (args[0] === old.key && !newer) newer = (await target.put(old.key, "replaced"))?.etag ?? "?";
          return target.put(...args);
        };
      },
    });
    const bindings: PackBindings = { PACKS: racing, PRIVATE_PACKS: env.PRIVATE_PACKS };
    const m = convertMessage(org.orgId, packId, old.key, old.etag);
    expect(await convertV1Pack(bindings, m, undefined)).toBe("changed");
    expect((await env.PACKS.head(old.key))?.etag).toBe(newer);
    expect(await (await env.PACKS.get(old.key))?.text()).toBe("replaced");
  });

  it("a message naming another organisation's key, or none of its packs, is refused and acknowledged", async () => {
    const orgId = crypto.randomUUID();
    const body = { type: PACK_CONVERT_MESSAGE, org_id: orgId, pack_id: "p", key: "public/sydney-demo.pack", etag: "e" };
    expect(readConvertMessage(body)).toBeNull();
    expect(readConvertMessage({ ...body, key: `orgs/${orgId}/p.pack`, etag: "" })).toBeNull();
    expect(readConvertMessage({ ...body, key: `orgs/${orgId}/p.pack` })).toMatchObject({ pack_id: "p" });
    const { result } = await deliver(body);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
  });
});
