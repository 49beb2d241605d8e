// Private packs still in v1 (issue 48: one pack model): the queue job that stores a v1 pack found on read as v2 under
// the same key, id and version, and a large upload's build source read in whichever format it was stored. The v1
// reader and converter are used here and by the readers of objects already in R2, nowhere else.
import { nextTask } from "../../lib/next-task.ts";
import { formatOfBytes } from "../pack-bytes.ts";
import { PAGED_VERSION, WHOLE_PACK_MAX_BYTES, wholePackOfBytes } from "../paged/index.ts";
import { PARCELS } from "../spatial.ts";
import type { Pack, PackBindings } from "../types.ts";
import type { UploadLots } from "../upload/lots-encoder.ts";
import { storedBytes } from "../upload/stored-form.ts";
import { decodePack } from "../v1/decode.ts";
import { v1ToV2 } from "../v1/to-v2.ts";
import { type PackConvertMessage, SYNC_BUILD_MAX_FEATURES, pagedMetadata } from "./build-state.ts";
import { invalidatePrivatePacks } from "./store.ts";

/** What a conversion did: stored v2, or nothing (the object changed or went, is v2 already, or is too large). */
export type ConvertOutcome = "converted" | "changed" | "gone" | "not_v1" | "too_large";

/**
 * Stores the v1 pack `m` names as v2 (stored-form.ts decides which form, as for an upload), if R2 still holds it at
 * `m.etag`; a write conditional on that etag never overwrites a pack replaced meanwhile. No publish message: alerts
 * do not fire on a format change. The organisation's list is dropped after, so its next request reads v2.
 */
export async function convertV1Pack(
  bindings: PackBindings,
  m: PackConvertMessage,
  lots: UploadLots | undefined,
): Promise<ConvertOutcome> {
  const obj = await bindings.PACKS.get(m.key, { onlyIf: { etagMatches: m.etag } });
  if (!obj) return "gone";
  // A failed precondition answers the object without its body: it was replaced since it was read.
  if (!("body" in obj)) return "changed";
  const bytes = new Uint8Array(await obj.arrayBuffer());
  if (formatOfBytes(bytes) === PAGED_VERSION) return "not_v1";
  const pack = decodePack(bytes);
  const layers = await v1ToV2(pack, { pace: nextTask });
  // A pack of layers is read whole, refused past this: such a pack stays v1, which serves it.
  if (layers.byteLength > WHOLE_PACK_MAX_BYTES) return "too_large";
  // Facts of more lots than a request computes would not fit one queue message: those stay a pack of layers.
  const fits = (pack.layers.get(PARCELS)?.count ?? 0) <= SYNC_BUILD_MAX_FEATURES;
  const stored = await storedBytes(layers, m.key, fits ? lots : undefined);
  const put = await bindings.PACKS.put(m.key, stored, {
    onlyIf: { etagMatches: m.etag },
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: pagedMetadata(obj.customMetadata ?? {}),
  });
  // Replaced or deleted while it was converted: the newer object stays as it is.
  if (!put) return "changed";
  await invalidatePrivatePacks(bindings, m.org_id);
  return "converted";
}

/** A large upload's build source read whole, and how it is stored when it is not lots: as a v2 pack of layers. */
export type BuildSource = { pack: Pack; layers: () => Promise<Uint8Array> };

/** The build source's bytes read whole: a v2 pack of layers, stored as it is when it is not lots. */
export function readBuildSource(bytes: Uint8Array, key: string): BuildSource {
  if (formatOfBytes(bytes) === PAGED_VERSION) return { pack: wholePackOfBytes(bytes, key), layers: async () => bytes };
  // A build queued before uploads stopped encoding v1 has a v1 source: its lots keep v1's order, across the deploy too.
  const pack = decodePack(bytes);
  return { pack, layers: () => v1ToV2(pack, { pace: nextTask }) };
}
