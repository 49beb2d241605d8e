// The packs a request may use: public packs, plus the organisation's private packs when it has one.
import { type Logger, logger } from "../logger.ts";
import { loadPrivatePacks, privatePackSummaries } from "./private.ts";
import { packStorage } from "./private-store.ts";
import { type PackArea, pagesFor } from "./area.ts";
import type { PagedPack } from "./paged/reader.ts";
import { loadPublic } from "./registry.ts";
import { isolatePageCache } from "./paged/page-cache.ts";
import { type PackSummary, summarisePack, summarisePaged } from "./summary.ts";
import type { Pack, PackBindings } from "./types.ts";
import { type PackUpload, type UploadedPack, deletePrivatePack, uploadPrivatePack } from "./upload.ts";

export type { PackBindings };

export interface PackSource {
  /** The public v1 packs only (decoded whole). */
  public(): Promise<Pack[]>;
  /** The public v2 packs, opened by their root and read by range. */
  paged(): Promise<PagedPack[]>;
  /**
   * Public packs plus the organisation's private ones (public only when `orgId` is null), private first; with
   * `areas`, the pages of v2 packs those areas need come after them, as small packs.
   */
  forOrg(orgId: string | null, areas?: readonly PackArea[]): Promise<Pack[]>;
  /** GET /packs: what forOrg would read, listed without reading the organisation's uploads. */
  summaries(orgId: string | null): Promise<PackSummary[]>;
  /** Builds and stores an organisation's pack (POST /packs); every route sees it at once. */
  upload(input: PackUpload): Promise<UploadedPack>;
  /** Deletes an organisation's pack (DELETE /packs/{pack_id}); 404 when it holds no such pack. */
  remove(orgId: string, packId: string): Promise<void>;
}

export async function visiblePacks(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
  areas: readonly PackArea[] = [],
): Promise<Pack[]> {
  const [pub, privatePacks] = await Promise.all([
    packStorage(loadPublic(bindings.PACKS, prefix, log)),
    orgId ? packStorage(loadPrivatePacks(bindings, orgId, log)) : Promise.resolve([]),
  ]);
  const pages = await packStorage(pagesFor(pub.paged, areas));
  // Private packs first: an organisation's own data wins over public data where both answer.
  return [...privatePacks, ...pub.packs, ...pages];
}

export async function visibleSummaries(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
): Promise<PackSummary[]> {
  const [pub, privateList] = await Promise.all([
    packStorage(loadPublic(bindings.PACKS, prefix, log)),
    orgId ? packStorage(privatePackSummaries(bindings, orgId, log)) : Promise.resolve([]),
  ]);
  const paged = await packStorage(Promise.all(pub.paged.map(async (p) => summarisePaged(await p.snapshot()))));
  return [...privateList, ...pub.packs.map(summarisePack), ...paged];
}

export function packSource(bindings: PackBindings, prefix: string, log: Logger, cacheBytes?: number): PackSource {
  // The first request of an isolate sizes its page cache (PACK_CACHE_BYTES).
  isolatePageCache(cacheBytes);
  return {
    public: async () => (await packStorage(loadPublic(bindings.PACKS, prefix, log))).packs,
    paged: async () => (await packStorage(loadPublic(bindings.PACKS, prefix, log))).paged,
    forOrg: (orgId, areas) => visiblePacks(bindings, prefix, orgId, log, areas),
    summaries: (orgId) => visibleSummaries(bindings, prefix, orgId, log),
    upload: (input) => uploadPrivatePack(bindings, input),
    remove: (orgId, packId) => deletePrivatePack(bindings, orgId, packId),
  };
}
