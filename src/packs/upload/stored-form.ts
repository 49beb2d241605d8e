// What a private pack is stored as (docs/design.md section 10: private packs use the public format), decided once for
// an upload and for a private v1 pack converted on read (private/convert-v1.ts): both come here as a v2 pack of layers.
import { wholePackOfBytes } from "../paged/index.ts";
import { PARCELS } from "../spatial.ts";
import type { Pack } from "../types.ts";
import type { UploadLots } from "./lots-encoder.ts";

/** The root's `info` of a v2 lots pack built from an upload: its title, attribution, licence and provenance. */
export function lotsInfo(pack: Pack): Record<string, string> {
  const { title, attribution, licence, upload } = pack.meta;
  return { title, attribution, licence, ...upload };
}

/**
 * The bytes to store for `layers` (a v2 pack of layers, in memory): a pack of lots alone, when `lots` can compute
 * their facts, as a v2 lots pack with its facts, read by range like public lots; any other as it is, read whole. It is
 * read whole first, which proves it reads back. Same id and version either way.
 */
export async function storedBytes(layers: Uint8Array, key: string, lots: UploadLots | undefined): Promise<Uint8Array> {
  const pack = wholePackOfBytes(layers, key);
  const names = [...pack.layers.keys()];
  if (!lots || names.length !== 1 || names[0] !== PARCELS) return layers;
  return lots.encode(pack, await lots.context(), lotsInfo(pack));
}
