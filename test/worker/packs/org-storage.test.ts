// Issue 47 (finding 6) in workerd: the versions kept for alerts count against the organisation's storage, so a store
// that fits on live packs alone but not with their kept versions is refused (409) and changes nothing in R2.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "../../../src/errors.ts";
import { STORE_LIMITS, storeFinishedPack } from "../../../src/packs/private/put.ts";
import { MAX_ORG_STORAGE_BYTES, orgStorageBytes } from "../../../src/packs/private/storage.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";
import { uploadPack } from "../helpers/upload-form.ts";
import { squareLot } from "../../support/lot-feature.ts";

const lots = (count: number) => ({
  type: "FeatureCollection",
  features: Array.from({ length: count }, (_, i) =>
    squareLot({ lot_id: `${i + 1}//DP7000${i}` }, 150.90009 + i * 0.0002, -33.94991, 0.00009),
  ),
});

// Stores `count` lots under one name (a new version each time) and returns the pack id.
async function upload(org: TestOrg, count: number): Promise<string> {
  const res = await uploadPack(org.users.owner.token, lots(count), "Kept versions");
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json<{ pack_id: string }>()).pack_id;
}

const sizes = async (prefix: string) => (await env.PACKS.list({ prefix })).objects.map((o) => [o.key, o.size] as const);
const total = (list: readonly (readonly [string, number])[]) => list.reduce((n, [, s]) => n + s, 0);

let org: TestOrg;
beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db));
});

describe("kept versions count against the organisation's storage", () => {
  it("storage is live packs plus kept versions; a store over it with its versions is 409 and writes nothing", async () => {
    expect(MAX_ORG_STORAGE_BYTES).toBe(20 * 25 * 1024 * 1024);
    let packId = "";
    for (const count of [10, 11, 12]) packId = await upload(org, count);
    const live = await sizes(`orgs/${org.orgId}/`);
    const kept = await sizes(`versions/orgs/${org.orgId}/`);
    expect(kept.length).toBe(3);
    expect(await orgStorageBytes(env.PACKS, org.orgId)).toBe(total(live) + total(kept));

    // A fourth version of the same size: live packs alone would fit, the versions kept with it would not.
    const current = await env.PACKS.get(`orgs/${org.orgId}/${packId}.pack`);
    if (!current) throw new Error("the live pack is missing");
    const bytes = new Uint8Array(await current.arrayBuffer());
    const next = {
      packId,
      version: "29990101T000000Z",
      bytes,
      meta: { ...current.customMetadata, version: "29990101T000000Z" },
    };
    const limits = { ...STORE_LIMITS, orgBytes: total(live) + bytes.byteLength };
    // Without the publishes queue: no alert run outlives the test.
    const bindings = { PACKS: env.PACKS, PRIVATE_PACKS: env.PRIVATE_PACKS };
    const refused = await storeFinishedPack(bindings, org.orgId, next, limits).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).detail).toMatch(
      /^This organisation's packs and their kept versions would take \d+\.\d MiB, over its \d+\.\d MiB of storage: delete a pack/,
    );
    expect(await sizes(`orgs/${org.orgId}/`)).toEqual(live);
    expect(await sizes(`versions/orgs/${org.orgId}/`)).toEqual(kept);

    // Within the organisation's storage, the same store goes through; all four versions are minutes old, so a publish
    // still queued between them finds both of its versions (none is pruned before VERSION_MIN_AGE_MS).
    await storeFinishedPack(bindings, org.orgId, next);
    expect((await sizes(`versions/orgs/${org.orgId}/${packId}@`)).map(([k]) => k.split("@")[1])).toContain(
      "29990101T000000Z.pack",
    );
    expect((await sizes(`versions/orgs/${org.orgId}/`)).length).toBe(4);
  });
});
