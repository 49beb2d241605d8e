// An organisation's private packs, through its cache Durable Object; decoded once per isolate per etag.
import type { PrivatePackCache } from "./private-cache.ts";
import { decodePack } from "./decode.ts";
import { type Logger, logger } from "../logger.ts";
import type { Pack } from "./types.ts";

const decoded = new Map<string, { etag: string; pack: Pack }>();

export async function loadPrivatePacks(
  ns: DurableObjectNamespace<PrivatePackCache>,
  orgId: string,
  log: Logger = logger,
): Promise<Pack[]> {
  const prefix = `orgs/${orgId}/`;
  const known = [...decoded.entries()].filter(([key]) => key.startsWith(prefix)).map(([, v]) => v.etag);
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
      decoded.set(item.key, { etag: item.etag, pack });
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
