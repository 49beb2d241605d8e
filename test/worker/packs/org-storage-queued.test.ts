// Issue 47 (hostile round four) in workerd: a large upload, built off the request by the queue, is checked against the
// organisation's storage before it is queued, so an organisation at its limit hears 409 at once, not 202 then a failed
// build; nothing of it is stored. The limit is passed small, as the kept-versions test passes storeFinishedPack's.
import { heldQueue } from "../../support/held-queue.ts";
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "../../../src/errors.ts";
import { kindResponse } from "../../../src/http/errors.ts";
import { SYNC_BUILD_MAX_FEATURES } from "../../../src/packs/private/build-state.ts";
import { orgStorageBytes } from "../../../src/packs/private/storage.ts";
import { readGeoJson } from "../../../src/packs/upload/read-geojson.ts";
import { type PackHeader, buildPrivatePack } from "../../../src/packs/upload/uploads.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { queueBuild } from "../../../src/packs/upload/queue.ts";
import type { BuiltPack } from "../../../src/packs/upload/uploaded.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { bearer } from "../../support/tokens.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";
import { uploadPack } from "../helpers/upload-form.ts";

type Listed = { id: string; state: string; private?: boolean };

// `count` lots in a grid, each its own place.
const lots = (count: number) => ({
  type: "FeatureCollection",
  features: Array.from({ length: count }, (_, i) =>
    squareLot(
      { lot_id: `${i + 1}//DP${700000 + (i % 997)}` },
      150.9 + (i % 100) * 0.0002 + 0.00009,
      -33.95 + Math.floor(i / 100) * 0.0002 + 0.00009,
      0.00009,
    ),
  ),
});

const LARGE = SYNC_BUILD_MAX_FEATURES + 1;

/** The pack POST /packs would hand to the queue for `count` lots: read and built as uploadPrivatePack does. */
async function built(org: TestOrg, count: number, packId: string, version?: string): Promise<BuiltPack> {
  const layer = new UploadLayerBuilder("parcels", null);
  await readGeoJson(new Blob([JSON.stringify(lots(count))]).stream(), layer);
  const header: PackHeader = {
    orgId: org.orgId,
    uploadedBy: "owner",
    fileName: "lots.geojson",
    name: "Big estate",
    layer: "parcels",
  };
  return buildPrivatePack(header, layer.finish(), packId, new Date(), version);
}

const bindings = () => ({ PACKS: env.PACKS, PRIVATE_PACKS: env.PRIVATE_PACKS });
const sizes = async (prefix: string) => (await env.PACKS.list({ prefix })).objects.map((o) => [o.key, o.size] as const);
const listed = async (org: TestOrg) =>
  (await SELF.fetch("https://api.test/packs", { headers: bearer(org.users.member.token) })).json<Listed[]>();
const own = async (org: TestOrg) => (await listed(org)).filter((p) => p.private === true);

/** The organisation's objects and packs as GET /packs lists them: what a refused upload must leave as it was. */
const stored = async (org: TestOrg) => ({
  live: await sizes(`orgs/${org.orgId}/`),
  kept: await sizes(`versions/orgs/${org.orgId}/`),
  packs: await own(org),
});

/** What a refusal must leave: no build source or part, no build state, the stored packs as they were. */
async function expectNothingQueued(org: TestOrg, before: Awaited<ReturnType<typeof stored>>): Promise<void> {
  expect(await sizes(`builds/orgs/${org.orgId}/`)).toEqual([]);
  const stub = env.PRIVATE_PACKS.get(env.PRIVATE_PACKS.idFromName(org.orgId));
  expect(await stub.builds()).toEqual([]);
  expect(await stored(org)).toEqual(before);
  expect((await own(org)).every((p) => p.state === "ready")).toBe(true);
}

const refusal = async (run: Promise<unknown>): Promise<ConflictError> => {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConflictError);
  return err as ConflictError;
};

let org: TestOrg;
let smallId = "";
beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db));
  // The organisation holds a pack already: the limits below put it just short of room for the large one.
  const res = await uploadPack(org.users.owner.token, lots(10), "Small estate");
  expect(res.status, await res.clone().text()).toBe(201);
  smallId = (await res.json<{ pack_id: string }>()).pack_id;
}, 120_000);

describe("a queued upload is checked against the organisation's storage before it is queued", () => {
  it("a new pack whose source alone would pass the limit is 409 up front, and nothing is stored or queued", async () => {
    const big = await built(org, LARGE, crypto.randomUUID());
    expect(big.uploaded.features).toBe(LARGE);
    const held = await orgStorageBytes(env.PACKS, org.orgId);
    const before = await stored(org);
    const limit = held + big.bytes.byteLength - 1;
    const sent: unknown[] = [];
    const err = await refusal(queueBuild(bindings(), heldQueue(sent), org.orgId, big, limit));
    expect(sent).toEqual([]);
    expect(kindResponse(err).status).toBe(409);
    expect(err.detail).toMatch(
      /^This organisation's packs and their kept versions would take \d+\.\d MiB, over its \d+\.\d MiB of storage: delete a pack/,
    );
    await expectNothingQueued(org, before);
  });

  it("a new version of a pack it has counts the versions the store will keep, as the finished store does", async () => {
    const next = await built(org, LARGE, smallId, "29990101T000000Z");
    const held = await orgStorageBytes(env.PACKS, org.orgId);
    const before = await stored(org);
    expect(before.kept).toEqual([]);
    // Live packs alone would fit (the small pack replaced); with the old and new versions kept beside them, not.
    const limit = held + 2 * next.bytes.byteLength - 1;
    await refusal(queueBuild(bindings(), heldQueue([]), org.orgId, next, limit));
    await expectNothingQueued(org, before);
  });

  it("with room for the source exactly, it is queued as before; deleted, it leaves nothing", async () => {
    const big = await built(org, LARGE, crypto.randomUUID());
    const packId = big.uploaded.pack_id;
    const before = await stored(org);
    const limit = (await orgStorageBytes(env.PACKS, org.orgId)) + big.bytes.byteLength;
    const sent: unknown[] = [];
    const queued = await queueBuild(bindings(), heldQueue(sent), org.orgId, big, limit);
    expect(queued).toMatchObject({ pack_id: packId, state: "processing", progress: 0, features: LARGE });
    expect(sent).toEqual([expect.objectContaining({ pack_id: packId })]);
    expect((await sizes(`builds/orgs/${org.orgId}/${packId}@`)).length).toBe(1);
    expect((await listed(org)).find((p) => p.id === packId)?.state).toBe("processing");
    const res = await SELF.fetch(`https://api.test/packs/${packId}`, {
      method: "DELETE",
      headers: bearer(org.users.owner.token),
    });
    expect(res.status).toBe(204);
    await expectNothingQueued(org, before);
  });
});
