// What storing an uploaded lots layer as a v2 lots pack needs from a layer above: packs must not import assess, where
// a lot's facts are computed, so the encoder is handed in (src/assess/upload-lots.ts) with what it computes them over.
import type { PagedPack } from "../paged/index.ts";
import type { Pack } from "../types.ts";

/** What the organisation sees at upload time: overlay packs (its own first, then public v1) and public v2 lots. */
export type UploadLotsContext = { overlays: readonly Pack[]; lots: readonly PagedPack[] };

/** The root's `info` of an uploaded lots pack: title, attribution, licence and the upload's provenance. */
export type UploadLotsInfo = Record<string, string>;

/** Encodes the upload (read whole, holding its `parcels` layer) as a v2 lots pack of the same id and version. */
export type UploadLotsEncoder = (upload: Pack, context: UploadLotsContext, info: UploadLotsInfo) => Promise<Uint8Array>;

/** The encoder and, read once per upload, what it computes facts over. */
export type UploadLots = { encode: UploadLotsEncoder; context: () => Promise<UploadLotsContext> };
