// An organisation's private packs: which ones from its Durable Object (keys and etags, never bytes), the bytes
// straight from R2, decoded once per isolate per etag.
import { ByteLru } from "./byte-lru.ts";
import type { PrivatePackEntry } from "./private-cache.ts";
import { summaryFromMetadata } from "./private-meta.ts";
import { invalidatePrivatePacks, privatePrefix } from "./private-store.ts";
import { PRIVATE_PACK_TTL_MS } from "./private-ttl.ts";
import { decodePack } from "./decode.ts";
import { type Logger, logger } from "../logger.ts";
import { type PackSummary, summarisePack } from "./summary.ts";
import type { Pack, PackBindings } from "./types.ts";

/** Decoded private packs an isolate keeps (its memory is 128 MB): least recently used go first. */
export const DECODED_PACKS_MAX_BYTES = 32 * 1024 * 1024;

const decoded = new ByteLru<{ etag: string; pack: Pack }>(DECODED_PACKS_MAX_BYTES, PRIVATE_PACK_TTL_MS);
// Requests of one isolate wanting the same pack at once share one read (a pack may be tens of MiB).
const reading = new Map<string, Promise<Pack | null>>();

/** The organisation's packs as its Durable Object lists them: keys, etags, sizes and metadata. */
export function privatePackEntries(bindings: PackBindings, orgId: string): Promise<PrivatePackEntry[]> {
  const ns = bindings.PRIVATE_PACKS;
  return ns.get(ns.idFromName(orgId)).getPacks(orgId);
}

async function readPack(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  const obj = await bindings.PACKS.get(entry.key);
  // Deleted or replaced behind the Durable Object's back: it lists R2 again at the next request.
  if (!obj || obj.etag !== entry.etag) {
    await invalidatePrivatePacks(bindings, orgId).catch((err: unknown) =>
      log.warn("private pack list not refreshed", { key: entry.key, error: err }),
    );
  }
  if (!obj) return null;
  try {
    const pack = decodePack(await obj.arrayBuffer());
    decoded.set(entry.key, { etag: obj.etag, pack }, pack.byteLength);
    return pack;
  } catch (err) {
    log.error("private pack refused", { key: entry.key, error: err });
    return null;
  }
}

/** One pack's bytes, decoded: from this isolate's memory when it holds this etag, else read from R2. */
async function packOf(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  const have = decoded.get(entry.key);
  if (have && have.etag === entry.etag) return have.pack;
  const id = `${entry.key}@${entry.etag}`;
  let pending = reading.get(id);
  if (!pending) {
    pending = readPack(bindings, orgId, entry, log).finally(() => reading.delete(id));
    reading.set(id, pending);
  }
  return pending;
}

export async function loadPrivatePacks(bindings: PackBindings, orgId: string, log: Logger = logger): Promise<Pack[]> {
  const entries = await privatePackEntries(bindings, orgId);
  const packs: Pack[] = [];
  // One at a time: each may be large, and only the decoded views need to stay.
  for (const entry of entries) {
    const pack = await packOf(bindings, orgId, entry, log);
    if (pack) packs.push(pack);
  }
  // Forget packs this organisation no longer has, so a deleted upload stops being served.
  const live = new Set(entries.map((e) => e.key));
  const prefix = privatePrefix(orgId);
  for (const key of decoded.keys()) if (key.startsWith(prefix) && !live.has(key)) decoded.delete(key);
  return packs;
}

/** GET /packs for the organisation's own packs: from metadata; only a pack stored without it is read. */
export async function privatePackSummaries(
  bindings: PackBindings,
  orgId: string,
  log: Logger = logger,
): Promise<PackSummary[]> {
  const out: PackSummary[] = [];
  for (const entry of await privatePackEntries(bindings, orgId)) {
    const listed = summaryFromMetadata(entry);
    if (listed) {
      out.push(listed);
      continue;
    }
    const pack = await packOf(bindings, orgId, entry, log);
    if (pack) out.push(summarisePack(pack));
  }
  return out;
}
