// A large upload handed to the pack-build queue: its checked source stored, its build recorded as `processing` in the
// organisation's Durable Object, and the first chunk's message sent; the request answers 202 at once.
import { buildMessage, buildSourceKey, pagedMetadata } from "./private-build.ts";
import { deleteBuildObjects, putPack } from "./private-put.ts";
import { packStorage } from "./private-store.ts";
import type { PackBindings } from "./types.ts";
import type { BuiltPack, UploadedPack } from "./uploaded.ts";

export async function queueBuild(
  bindings: PackBindings,
  queue: Queue,
  orgId: string,
  built: BuiltPack,
  paged: boolean,
): Promise<UploadedPack> {
  const { pack_id: packId, version } = built.uploaded;
  const lots = paged && built.pack.layers.has("parcels");
  const source = buildSourceKey(orgId, packId, version);
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
        meta: lots ? pagedMetadata(built.customMetadata) : built.customMetadata,
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
