// An organisation's storage (issue 47, finding 6): its live private packs and every version kept under versions/
// count together against one total, so re-uploads cannot grow R2 without bound behind the 20-pack limit.
import { ConflictError } from "../../errors.ts";
import { privateKey, privatePrefix } from "./store.ts";
import { VERSIONS_PREFIX, versionsOfPack } from "./kept-versions.ts";

/** Bytes an organisation may hold: live packs plus kept versions, as much as 20 full-size packs. */
export const MAX_ORG_STORAGE_BYTES = 20 * 25 * 1024 * 1024;

/** A queued publish (retried for minutes, then dead-lettered) reads both its versions: none younger is pruned. */
export const VERSION_MIN_AGE_MS = 60 * 60 * 1000;

/** Every object's size under `prefix`, by key; `young` gets the keys uploaded after `since` (ms since the epoch). */
async function sizesUnder(
  bucket: R2Bucket,
  prefix: string,
  young?: { since: number; keys: Set<string> },
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const o of page.objects) {
      out.set(o.key, o.size);
      if (young && o.uploaded.getTime() > young.since) young.keys.add(o.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

/** The pack's versions a store prunes: beyond the newest `keep` (versions sort as text), none younger than the minimum age. */
export function prunable(keys: Iterable<string>, keep: number, young: ReadonlySet<string>): string[] {
  const sorted = [...keys].sort();
  return sorted.slice(0, Math.max(0, sorted.length - keep)).filter((k) => !young.has(k));
}

const sum = (sizes: Iterable<number>) => {
  let n = 0;
  for (const s of sizes) n += s;
  return n;
};

/** Bytes the organisation holds now: every live private pack and every kept version. */
export async function orgStorageBytes(bucket: R2Bucket, orgId: string): Promise<number> {
  const [live, kept] = await Promise.all([
    sizesUnder(bucket, privatePrefix(orgId)),
    sizesUnder(bucket, `${VERSIONS_PREFIX}${privatePrefix(orgId)}`),
  ]);
  return sum(live.values()) + sum(kept.values());
}

/** What storing one pack changes: its new live object, and its versions once written and pruned to the newest `keep`. */
export type PlannedStore = {
  packId: string;
  bytes: number;
  /** Version objects the store writes (key and size): the old live one's copy, if new, and the new version's. */
  writes: ReadonlyMap<string, number>;
  keep: number;
  /** The time (ms since the epoch) the store runs at: versions younger than VERSION_MIN_AGE_MS then stay. */
  now: number;
};

/** Bytes the organisation would hold after the store: the same accounting as orgStorageBytes, done ahead. */
export async function storageAfter(bucket: R2Bucket, orgId: string, plan: PlannedStore): Promise<number> {
  const young = { since: plan.now - VERSION_MIN_AGE_MS, keys: new Set<string>(plan.writes.keys()) };
  const [live, kept] = await Promise.all([
    sizesUnder(bucket, privatePrefix(orgId)),
    sizesUnder(bucket, `${VERSIONS_PREFIX}${privatePrefix(orgId)}`, young),
  ]);
  live.set(privateKey(orgId, plan.packId), plan.bytes);
  for (const [key, size] of plan.writes) kept.set(key, size);
  // The pack's versions the store will prune once it is stored (pruneVersions, with the same rule).
  const own = [...kept.keys()].filter((k) => k.startsWith(versionsOfPack(orgId, plan.packId)));
  for (const key of prunable(own, plan.keep, young.keys)) kept.delete(key);
  return sum(live.values()) + sum(kept.values());
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The organisation within `limit` after the store, or a 409 saying how to make room. */
export async function checkOrgStorage(bucket: R2Bucket, orgId: string, plan: PlannedStore, limit: number) {
  const after = await storageAfter(bucket, orgId, plan);
  if (after <= limit) return;
  throw new ConflictError(
    `This organisation's packs and their kept versions would take ${mib(after)} MiB, over its ${mib(limit)} MiB of storage: delete a pack (its kept versions go with it) first`,
  );
}
