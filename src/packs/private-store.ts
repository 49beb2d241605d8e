// Organisation-private packs in R2 under orgs/{org_id}/, and the cache Durable Object told of every change at once.
import type { PackBindings } from "./types.ts";

export const privatePrefix = (orgId: string) => `orgs/${orgId}/`;
export const privateKey = (orgId: string, packId: string) => `${privatePrefix(orgId)}${packId}.pack`;

/** The pack files an organisation holds in R2 (keys ending .pack). */
export async function privatePackKeys(bucket: R2Bucket, orgId: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: privatePrefix(orgId), cursor });
    for (const obj of page.objects) if (obj.key.endsWith(".pack")) keys.push(obj.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** Drops the organisation's cached packs so the next request of any isolate reads R2 again. */
export async function invalidatePrivatePacks(bindings: PackBindings, orgId: string): Promise<void> {
  const ns = bindings.PRIVATE_PACKS;
  await ns.get(ns.idFromName(orgId)).invalidate();
}
