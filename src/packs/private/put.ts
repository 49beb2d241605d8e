// Storing a finished private pack (new, or a new version of one the organisation has), and deleting one whole: its
// live object, every version kept for alerts and any build in progress, so nothing of it is left in R2 uncounted.
import { TooLargeError } from "../../errors.ts";
import { buildsOfPack } from "./build-state.ts";
import { MAX_ORG_STORAGE_BYTES, VERSION_MIN_AGE_MS, checkOrgStorage, prunable } from "./storage.ts";
import { invalidatePrivatePacks, packStorage, privateKey } from "./store.ts";
import { versionKey, versionsOfPack } from "./kept-versions.ts";
import { publishMessage } from "../publish-message.ts";
import type { PackBindings } from "../types.ts";

/** Limits of docs/design.md section 9. */
export const MAX_PACK_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_PRIVATE_PACKS = 20;
/** Versions of a pack kept under versions/ for the alerts consumer: the newest, and any younger than VERSION_MIN_AGE_MS. */
export const KEPT_VERSIONS = 3;

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** What a stored pack may take: itself (stored tiles included), and the organisation's packs with their versions. */
export type StoreLimits = { packBytes: number; orgBytes: number };
export const STORE_LIMITS: StoreLimits = { packBytes: MAX_PACK_UPLOAD_BYTES, orgBytes: MAX_ORG_STORAGE_BYTES };

/** The built pack (stored tiles included) within the byte cap, or a 413 saying how large it came out. */
export function checkStoredSize(bytes: number, cap = MAX_PACK_UPLOAD_BYTES): void {
  if (bytes <= cap) return;
  throw new TooLargeError(
    `The built pack is ${mib(bytes)} MiB with its stored map tiles, over the ${cap / 1024 / 1024} MiB limit: upload fewer or smaller lots (overlapping lots make many tiles)`,
  );
}

export const putPack = (
  bindings: PackBindings,
  key: string,
  bytes: Uint8Array | ArrayBuffer,
  meta: Record<string, string>,
) =>
  bindings.PACKS.put(key, bytes, {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: meta,
  });

/** Deletes every object under `prefix` (a page of keys at a time); `keep` names keys to leave. */
async function deletePrefix(bucket: R2Bucket, prefix: string, keep: (key: string) => boolean = () => false) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    const gone = page.objects.map((o) => o.key).filter((k) => !keep(k));
    if (gone.length > 0) await bucket.delete(gone);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** Drops versions of the pack beyond the newest KEPT_VERSIONS, but none a queued publish may still read. */
async function pruneVersions(bucket: R2Bucket, orgId: string, packId: string, now: number): Promise<void> {
  const keys: string[] = [];
  const young = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: versionsOfPack(orgId, packId), cursor });
    for (const o of page.objects) {
      keys.push(o.key);
      if (o.uploaded.getTime() > now - VERSION_MIN_AGE_MS) young.add(o.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const old = prunable(keys, KEPT_VERSIONS, young);
  if (old.length > 0) await bucket.delete(old);
}

export type FinishedPack = { packId: string; version: string; bytes: Uint8Array; meta: Record<string, string> };

/**
 * What storing `pack` over `before` (the live object, or null) writes, for checkOrgStorage: over a pack the
 * organisation has, the old version's copy (unless kept already) and the new one under versions/.
 */
export async function storePlan(
  bucket: R2Bucket,
  orgId: string,
  pack: { packId: string; version: string; bytes: { byteLength: number } },
  before: R2Object | null,
) {
  const toKey = versionKey(orgId, pack.packId, pack.version);
  const oldVersion = before?.customMetadata?.version;
  const fromKey = oldVersion ? versionKey(orgId, pack.packId, oldVersion) : null;
  const copyOld = before !== null && fromKey !== null && !(await packStorage(bucket.head(fromKey)));
  const writes = new Map<string, number>();
  if (before && fromKey && copyOld) writes.set(fromKey, before.size);
  if (before) writes.set(toKey, pack.bytes.byteLength);
  const plan = { packId: pack.packId, bytes: pack.bytes.byteLength, writes, keep: KEPT_VERSIONS, now: Date.now() };
  return { toKey, fromKey, copyOld, plan };
}

/**
 * Stores the pack as the organisation's live `packId`. Over a pack it already has, both versions are kept under
 * versions/ and the publish queued before the live object changes, so a failure anywhere changes nothing seen. A pack
 * over `limits` (itself, or the organisation's storage with kept versions) stores nothing.
 */
export async function storeFinishedPack(
  bindings: PackBindings,
  orgId: string,
  pack: FinishedPack,
  limits: StoreLimits = STORE_LIMITS,
): Promise<void> {
  checkStoredSize(pack.bytes.byteLength, limits.packBytes);
  const key = privateKey(orgId, pack.packId);
  const before = await packStorage(bindings.PACKS.get(key));
  const { toKey, fromKey, copyOld, plan } = await storePlan(bindings.PACKS, orgId, pack, before);
  try {
    await packStorage(checkOrgStorage(bindings.PACKS, orgId, plan, limits.orgBytes));
  } catch (err) {
    await before?.body.cancel();
    throw err;
  }
  if (before) {
    if (fromKey && copyOld) {
      await packStorage(putPack(bindings, fromKey, await before.arrayBuffer(), before.customMetadata ?? {}));
    } else await before.body.cancel();
    await packStorage(putPack(bindings, toKey, pack.bytes, pack.meta));
    if (fromKey && bindings.PUBLISHES) {
      await packStorage(bindings.PUBLISHES.send(publishMessage(pack.packId, orgId, fromKey, toKey)));
    }
  }
  await packStorage(putPack(bindings, key, pack.bytes, pack.meta));
  if (before) await packStorage(pruneVersions(bindings.PACKS, orgId, pack.packId, plan.now));
  await packStorage(invalidatePrivatePacks(bindings, orgId));
}

/** Deletes the pack's live object, every kept version and build object, and its build state. */
export async function deleteWholePack(bindings: PackBindings, orgId: string, packId: string): Promise<void> {
  const ns = bindings.PRIVATE_PACKS;
  const stub = ns.get(ns.idFromName(orgId));
  // The build is forgotten first, so a chunk running now finds it gone and stores nothing.
  await packStorage(stub.dropBuild(packId));
  await packStorage(bindings.PACKS.delete(privateKey(orgId, packId)));
  await packStorage(deletePrefix(bindings.PACKS, versionsOfPack(orgId, packId)));
  await packStorage(deletePrefix(bindings.PACKS, buildsOfPack(orgId, packId)));
  await packStorage(invalidatePrivatePacks(bindings, orgId));
}

/** Deletes one build's objects (its source and parts), once its pack is stored or the build failed. */
export const deleteBuildObjects = (bucket: R2Bucket, prefix: string) => deletePrefix(bucket, prefix);
