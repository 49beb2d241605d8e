// The packs a request may use: public packs, plus the organisation's private packs when it has one.
import type { Env } from "../env.ts";
import { loadPublicPacks } from "./registry.ts";
import { loadPrivatePacks } from "./private.ts";
import type { Pack } from "./types.ts";

export async function visiblePacks(env: Env, prefix: string, orgId: string | null): Promise<Pack[]> {
  const [publicPacks, privatePacks] = await Promise.all([
    loadPublicPacks(env.PACKS, prefix),
    orgId ? loadPrivatePacks(env.PRIVATE_PACKS, orgId) : Promise.resolve([]),
  ]);
  // Private packs first: an organisation's own data wins over public data where both answer.
  return [...privatePacks, ...publicPacks];
}
