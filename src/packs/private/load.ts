// An organisation's private packs: which ones from its Durable Object (keys and etags, never bytes), then per format:
// a v1 pack, or a small v2 pack of layers, read whole from R2 once per isolate per etag, a v2 lots pack opened by its
// root and read by range through the isolate's page cache (keyed by key, etag and page, so a replaced object's pages are never served).
// A v1 pack is served as it is and asked of the pack-build queue to be stored as v2 (convert-v1.ts).
import { ByteLru } from "../byte-lru.ts";
import { convertMessage, type PackBuild } from "./build-state.ts";
import type { PrivatePackEntry } from "./cache-object.ts";
import { summaryFromMetadata } from "./custom-meta.ts";
import { invalidatePrivatePacks, privatePrefix } from "./store.ts";
import { PRIVATE_PACK_TTL_MS } from "./ttl.ts";
import { decodePack } from "../v1/decode.ts";
import { type Logger, logger } from "../../logger.ts";
import {
  isPagedObject,
  PackNotFoundError,
  PAGED_VERSION,
  PagedPack,
  PagedPackError,
  R2Source,
  readsWhole,
  readWhole,
} from "../paged/index.ts";
import { formatOf } from "../registry.ts";
import { type PackSummary, summarisePack, summarisePaged } from "../summary.ts";
import type { Pack, PackBindings } from "../types.ts";

/** Decoded private packs an isolate keeps (its memory is 128 MB): least recently used go first. */
export const DECODED_PACKS_MAX_BYTES = 32 * 1024 * 1024;

const decoded = new ByteLru<{ etag: string; pack: Pack }>(DECODED_PACKS_MAX_BYTES, PRIVATE_PACK_TTL_MS);
// v2 packs opened by this isolate, per key: only the root is held (by the reader's memo), pages live in the page cache.
const opened = new Map<string, { etag: string; paged: PagedPack }>();

/** An organisation's private packs as a request uses them: v1 decoded, v2 opened for range reads. */
export type PrivatePacks = { packs: Pack[]; paged: PagedPack[] };

/** The organisation's packs as its Durable Object lists them: keys, etags, sizes and metadata. */
export function privatePackEntries(bindings: PackBindings, orgId: string): Promise<PrivatePackEntry[]> {
  const ns = bindings.PRIVATE_PACKS;
  return ns.get(ns.idFromName(orgId)).getPacks(orgId);
}

const refreshList = (bindings: PackBindings, orgId: string, key: string, log: Logger) =>
  invalidatePrivatePacks(bindings, orgId).catch((err: unknown) =>
    log.warn("private pack list not refreshed", { key, error: err }),
  );

async function readPack(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  const obj = await bindings.PACKS.get(entry.key);
  // Deleted or replaced behind the Durable Object's back: it lists R2 again at the next request.
  if (!obj || obj.etag !== entry.etag) await refreshList(bindings, orgId, entry.key, log);
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

/**
 * One pack's bytes, decoded: from this isolate's memory when it holds this etag, else read from R2 by this request,
 * even while another reads it: a request awaiting another's read would hang if that request were cancelled.
 */
async function packOf(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  const have = decoded.get(entry.key);
  if (have && have.etag === entry.etag) return have.pack;
  return readPack(bindings, orgId, entry, log);
}

/**
 * Whether the entry is a v2 pack: uploads since issue 33 say so in their metadata; an object without it is read
 * for its 6-byte magic (once per etag: a v1 pack's answer is remembered by decoding it).
 */
async function isPaged(bindings: PackBindings, entry: PrivatePackEntry): Promise<boolean> {
  const said = isPagedObject(entry.meta);
  if (said !== undefined) return said;
  if (decoded.get(entry.key)?.etag === entry.etag) return false;
  if (opened.get(entry.key)?.etag === entry.etag) return true;
  return (await formatOf(bindings.PACKS, entry.key)) === PAGED_VERSION;
}

/**
 * The v2 pack of the entry, read by range at the etag the Durable Object lists; null when R2 no longer holds it.
 * Its root is read (or found in the isolate's memo) now, so a damaged pack is refused here (a PagedPackError: 503
 * naming it), not mid-answer and never silently absent.
 */
async function pagedOf(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  let have = opened.get(entry.key);
  if (!have || have.etag !== entry.etag) {
    have = { etag: entry.etag, paged: new PagedPack(new R2Source(bindings.PACKS, entry.key), { etag: entry.etag }) };
    opened.set(entry.key, have);
  }
  try {
    const s = await have.paged.snapshot();
    // Replaced behind the Durable Object's back: the reader read the object R2 holds now; the list is refreshed.
    if (s.etag !== entry.etag) await refreshList(bindings, orgId, entry.key, log);
    return have.paged;
  } catch (err) {
    opened.delete(entry.key);
    await refreshList(bindings, orgId, entry.key, log);
    // Deleted behind the Durable Object's back: gone, as the refreshed list will say.
    if (err instanceof PackNotFoundError) return null;
    log.error("private pack refused", { key: entry.key, error: err });
    throw err;
  }
}

async function wholeOf(entry: PrivatePackEntry, paged: PagedPack): Promise<Pack> {
  const have = decoded.get(entry.key);
  if (have && have.etag === entry.etag) return have.pack;
  const pack = await readWhole(paged);
  decoded.set(entry.key, { etag: entry.etag, pack }, pack.byteLength);
  return pack;
}

// v1 objects this isolate has asked the queue to convert, by key and etag (oldest first): each asked once.
const conversionsAsked = new Set<string>();
const MAX_CONVERSIONS_ASKED = 10_000;

/**
 * Asks the pack-build queue to store a v1 entry as v2 (convert-v1.ts), once per key and etag in this isolate; best
 * effort: a send that fails is logged, and the v1 reader serves the pack until a conversion is done.
 */
async function askConversion(bindings: PackBindings, orgId: string, entry: PrivatePackEntry, log: Logger) {
  const queue = bindings.PACK_BUILDS;
  const asked = `${entry.key}#${entry.etag}`;
  if (!queue || conversionsAsked.has(asked)) return;
  conversionsAsked.add(asked);
  if (conversionsAsked.size > MAX_CONVERSIONS_ASKED)
    conversionsAsked.delete(conversionsAsked.values().next().value as string);
  const packId = entry.meta.pack_id ?? entry.key.slice(privatePrefix(orgId).length).replace(/\.pack$/, "");
  await queue
    .send(convertMessage(orgId, packId, entry.key, entry.etag))
    .catch((err: unknown) => log.warn("private pack conversion not queued", { key: entry.key, error: err }));
}

export async function loadPrivatePacks(
  bindings: PackBindings,
  orgId: string,
  log: Logger = logger,
): Promise<PrivatePacks> {
  const entries = await privatePackEntries(bindings, orgId);
  const packs: Pack[] = [];
  const paged: PagedPack[] = [];
  // One at a time: each v1 pack may be large, and only the decoded views need to stay.
  for (const entry of entries) {
    if (await isPaged(bindings, entry)) {
      const p = await pagedOf(bindings, orgId, entry, log);
      if (!p) continue;
      // A small pack of layers is held whole like a v1 pack (its layers found by pack id), once per etag.
      if (readsWhole(await p.snapshot())) packs.push(await wholeOf(entry, p));
      else paged.push(p);
      continue;
    }
    const pack = await packOf(bindings, orgId, entry, log);
    if (!pack) continue;
    packs.push(pack);
    await askConversion(bindings, orgId, entry, log);
  }
  // Forget packs this organisation no longer has, so a deleted upload stops being served.
  const live = new Set(entries.map((e) => e.key));
  const prefix = privatePrefix(orgId);
  for (const key of decoded.keys()) if (key.startsWith(prefix) && !live.has(key)) decoded.delete(key);
  for (const key of [...opened.keys()]) if (key.startsWith(prefix) && !live.has(key)) opened.delete(key);
  return { packs, paged };
}

/** A served pack's listing with the state of a newer upload of it being built, if any. */
function withBuild(summary: PackSummary, build: PackBuild | undefined): PackSummary {
  return build ? { ...summary, state: build.state, progress: build.progress, failure: build.failure } : summary;
}

/** A pack not yet served (its first upload is being built, or failed), listed from its build's metadata. */
function buildSummary(build: PackBuild): PackSummary | null {
  const listed = summaryFromMetadata({ key: "", etag: "", size: build.sourceBytes, meta: build.meta });
  return listed && withBuild(listed, build);
}

/** GET /packs for the organisation's own packs: from metadata (only a pack stored without it is read), with builds. */
export async function privatePackSummaries(
  bindings: PackBindings,
  orgId: string,
  log: Logger = logger,
): Promise<PackSummary[]> {
  const ns = bindings.PRIVATE_PACKS;
  const builds = new Map((await ns.get(ns.idFromName(orgId)).builds()).map((b) => [b.packId, b]));
  const out: PackSummary[] = [];
  for (const entry of await privatePackEntries(bindings, orgId)) {
    const listed = summaryFromMetadata(entry);
    if (listed) {
      out.push(withBuild(listed, builds.get(listed.id)));
      builds.delete(listed.id);
      continue;
    }
    if (await isPaged(bindings, entry)) {
      // The list stays readable (so its owner can delete a damaged pack); every route reading it is a 503.
      const p = await pagedOf(bindings, orgId, entry, log).catch((err: unknown) => {
        if (err instanceof PagedPackError) return null;
        throw err;
      });
      if (p) out.push({ ...summarisePaged(await p.snapshot()), private: true });
      continue;
    }
    const pack = await packOf(bindings, orgId, entry, log);
    if (pack) out.push(summarisePack(pack));
  }
  for (const build of builds.values()) {
    const listed = buildSummary(build);
    if (listed) out.push(listed);
  }
  return out;
}
