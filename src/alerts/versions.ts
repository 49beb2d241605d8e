// One version of a pack as the alerts consumer compares it: a v1 pack or a v2 pack of layers read whole (demo and
// uploaded overlays), or a v2 lots pack opened by its root and read only in the pages a watched place needs.
import type { BBox } from "../geo/bbox.ts";
import { decodePack } from "../packs/v1/decode.ts";
import { chargedView, PAGED_VERSION, PagedPack, R2Source, readsWhole, readWhole } from "../packs/paged/index.ts";
import { formatOf } from "../packs/registry.ts";
import type { Pack } from "../packs/types.ts";
import type { LotState } from "./lot-state.ts";
import { type WatchPlace, watchedLots } from "./watched.ts";

export type PackVersion =
  | { kind: "whole"; id: string; version: string; bbox: BBox; pack: Pack }
  | { kind: "paged"; id: string; version: string; bbox: BBox; paged: PagedPack };

/** An object a publish names is not (yet) in R2: retried, since an upload or an event may arrive before it. */
export class MissingVersionError extends Error {}

// A publish's chunks each open the same two objects: versions read whole (v1, or a v2 pack of layers) are kept per
// isolate (by key and etag), the last two and only small ones, so a chunk costs its own comparisons, not two reads.
const KEPT_WHOLE = 2;
const KEPT_WHOLE_MAX_BYTES = 8 * 1024 * 1024;
const kept = new Map<string, PackVersion>();

// The kept version of this key and etag, else `read`'s, kept when the object is small.
async function keptVersion(id: string, bytes: number, read: () => Promise<PackVersion>): Promise<PackVersion> {
  const hit = kept.get(id);
  if (hit) {
    kept.delete(id);
    kept.set(id, hit);
    return hit;
  }
  const version = await read();
  if (bytes <= KEPT_WHOLE_MAX_BYTES) {
    kept.set(id, version);
    for (const old of kept.keys()) if (kept.size > KEPT_WHOLE) kept.delete(old);
  }
  return version;
}

async function openWhole(bucket: R2Bucket, key: string): Promise<PackVersion> {
  const body = await bucket.get(key);
  if (!body) throw new MissingVersionError(`pack object ${key} not found`);
  const id = `${key}#${body.etag}`;
  if (kept.has(id)) await body.body.cancel().catch(() => {});
  return keptVersion(id, body.size, async () => wholeVersion(decodePack(await body.arrayBuffer())));
}

/** Opens the object at `key`; a v2 lots pack reads its root only, a v2 pack of layers is read whole. */
export async function openVersion(bucket: R2Bucket, key: string): Promise<PackVersion> {
  const format = await formatOf(bucket, key);
  if (format === null) throw new MissingVersionError(`pack object ${key} not found`);
  if (format === PAGED_VERSION) {
    const paged = new PagedPack(new R2Source(bucket, key));
    const s = await paged.snapshot();
    if (!readsWhole(s)) return pagedVersion(paged);
    // Held whole, as the registry holds it.
    return keptVersion(`${key}#${s.etag}`, s.header.objectLength, async () => wholeVersion(await readWhole(paged)));
  }
  return openWhole(bucket, key);
}

export const wholeVersion = (pack: Pack): PackVersion => ({
  kind: "whole",
  id: pack.id,
  version: pack.version,
  bbox: pack.bbox,
  pack,
});

export async function pagedVersion(paged: PagedPack): Promise<PackVersion> {
  const { meta } = (await paged.snapshot()).root;
  return { kind: "paged", id: meta.id, version: meta.version, bbox: [...meta.bbox] as BBox, paged };
}

/**
 * The watched lots of `place` in this version, with `context` the public packs a v1 pack's facts are cut against.
 * A v2 pack reads only the pages whose boxes meet the place; a damaged one fails the publish (it is retried).
 */
export async function lotsAt(v: PackVersion, context: readonly Pack[], place: WatchPlace): Promise<LotState[]> {
  if (v.kind === "whole") return watchedLots([v.pack], context, place);
  const set = await v.paged.pagesForBox(place.bbox);
  const [bad] = set.refused;
  if (bad) throw new Error(`pack ${v.id}@${v.version}: page ${bad.page} refused (${bad.message})`);
  const s = set.snapshot;
  const views = set.pages.map((p) => chargedView(v.paged, s, p));
  return watchedLots(views, context, place);
}
