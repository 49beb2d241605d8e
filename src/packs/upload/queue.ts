// A large upload handed to the pack-build queue: its checked source stored, its build recorded as `processing` in the
// organisation's Durable Object, and the first chunk's message sent; the request answers 202 at once. An organisation
// already at its storage limit is refused (409) before any of that, not told 202 and failed later.
import { buildMessage, buildSourceKey } from "../private/build-state.ts";
import { STORE_LIMITS, deleteBuildObjects, putPack, storePlan } from "../private/put.ts";
import { checkOrgStorage } from "../private/storage.ts";
import { packStorage, privateKey } from "../private/store.ts";
import type { PackBindings } from "../types.ts";
import type { BuiltPack, UploadedPack } from "./uploaded.ts";

/** The organisation's storage checked as storeFinishedPack will check it, before the pack is built. */
async function checkStorageAhead(bucket: R2Bucket, orgId: string, built: BuiltPack, limit: number) {
  const { pack_id: packId, version } = built.uploaded;
  const before = await packStorage(bucket.head(privateKey(orgId, packId)));
  // The source's bytes are the least the pack will take: the built pack (v2 pages, stored tiles) is usually larger.
  const { plan } = await storePlan(bucket, orgId, { packId, version, bytes: built.bytes }, before);
  await packStorage(checkOrgStorage(bucket, orgId, plan, limit));
}

export async function queueBuild(
  bindings: PackBindings,
  queue: Queue,
  orgId: string,
  built: BuiltPack,
  orgBytes: number = STORE_LIMITS.orgBytes,
): Promise<UploadedPack> {
  const { pack_id: packId, version } = built.uploaded;
  const source = buildSourceKey(orgId, packId, version);
  await checkStorageAhead(bindings.PACKS, orgId, built, orgBytes);
  await packStorage(putPack(bindings, source, built.bytes, built.customMetadata));
  const ns = bindings.PRIVATE_PACKS;
  const stub = ns.get(ns.idFromName(orgId));
  try {
    await packStorage(
      stub.putBuild({
        packId,
        version,
        state: "processing",
        progress: 0,
        failure: null,
        // Says v2 already: pack-build.ts stores a lots pack, or the source itself when it is not lots.
        meta: built.customMetadata,
        sourceBytes: built.bytes.byteLength,
      }),
    );
    await packStorage(queue.send(buildMessage(orgId, packId, version, 0)));
  } catch (err) {
    // Nothing half-made is left: the build is forgotten and its source deleted.
    await stub.dropBuild(packId, version).catch(() => false);
    await deleteBuildObjects(bindings.PACKS, source).catch(() => undefined);
    throw err;
  }
  return { ...built.uploaded, state: "processing", progress: 0 };
}
