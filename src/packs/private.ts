// An organisation's private packs, through its cache Durable Object; decoded once per isolate per etag.
import { ByteLru } from "./byte-lru.ts";
import type { PrivatePackCache } from "./private-cache.ts";
import { PRIVATE_PACK_TTL_MS } from "./private-ttl.ts";
import { decodePack } from "./decode.ts";
import { type Logger, logger } from "../logger.ts";
import type { Pack } from "./types.ts";

/** Decoded private packs an isolate keeps (its memory is 128 MB): least recently used go first. */
export const DECODED_PACKS_MAX_BYTES = 32 * 1024 * 1024;

const decoded = new ByteLru<{ etag: string; pack: Pack }>(DECODED_PACKS_MAX_BYTES, PRIVATE_PACK_TTL_MS);

export async function loadPrivatePacks(
  ns: DurableObjectNamespace<PrivatePackCache>,
  orgId: string,
  log: Logger = logger,
): Promise<Pack[]> {
  const prefix = `orgs/${orgId}/`;
  const known = decoded
    .keys()
    .filter((key) => key.startsWith(prefix))
    .flatMap((key) => decoded.get(key)?.etag ?? []);
  const stub = ns.get(ns.idFromName(orgId));
  const items = await stub.getPacks(orgId, known);
  const packs: Pack[] = [];
  for (const item of items) {
    const have = decoded.get(item.key);
    if (have && have.etag === item.etag) {
      packs.push(have.pack);
      continue;
    }
    if (!item.bytes) continue;
    try {
      const pack = decodePack(item.bytes);
      decoded.set(item.key, { etag: item.etag, pack }, pack.byteLength);
      packs.push(pack);
    } catch (err) {
      log.error("private pack refused", { key: item.key, error: err });
    }
  }
  // Forget packs this organisation no longer has, so a deleted upload stops being served.
  const live = new Set(items.map((i) => i.key));
  for (const key of decoded.keys()) if (key.startsWith(prefix) && !live.has(key)) decoded.delete(key);
  return packs;
}
