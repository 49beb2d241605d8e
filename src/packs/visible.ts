// The packs a request may use: public packs, plus the organisation's private packs when it has one.
import { type Logger, logger } from "../logger.ts";
import { loadPrivatePacks, privatePackSummaries } from "./private/load.ts";
import { packStorage } from "./private/store.ts";
import { type PackArea, pagesFor } from "./request-pages.ts";
import { isolatePageCache } from "./paged/index.ts";
import { loadPublic } from "./registry.ts";
import { idOf, openPacks, pagedPacks, type VisiblePacks, wholePacks } from "./open-pack.ts";
import { type PackSummary, summarisePack, summarisePaged } from "./summary.ts";
import type { Pack, PackBindings } from "./types.ts";
import { type PackUpload, deletePrivatePack, uploadPrivatePack } from "./upload/uploads.ts";
import type { UploadedPack } from "./upload/uploaded.ts";
import type { UploadLotsContext, UploadLotsEncoder } from "./upload/lots-encoder.ts";
import type { WorldBuilding } from "./building.ts";

export type { PackBindings, VisiblePacks };

export interface PackSource {
  /** The public packs only. */
  public(): Promise<VisiblePacks>;
  /**
   * Public packs plus the organisation's private ones (public only when `orgId` is null), private first; with
   * `areas`, the pages of v2 packs those areas need come after them, as small packs.
   */
  forOrg(orgId: string | null, areas?: readonly PackArea[]): Promise<Pack[]>;
  /** The organisation's packs, then the public ones; public only when `orgId` is null. */
  visible(orgId: string | null): Promise<VisiblePacks>;
  /** GET /packs: what forOrg would read, listed without reading the organisation's uploads. */
  summaries(orgId: string | null): Promise<PackSummary[]>;
  /** Builds and stores an organisation's pack (POST /packs); every route sees it at once. */
  upload(input: PackUpload): Promise<UploadedPack>;
  /** Deletes an organisation's pack (DELETE /packs/{pack_id}); 404 when it holds no such pack. */
  remove(orgId: string, packId: string): Promise<void>;
  /** The world being built in the background (`npm run dev`), or null once it is published or when none is. */
  building(): Promise<WorldBuilding | null>;
}

export async function visibleSets(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
): Promise<VisiblePacks> {
  const [pub, own] = await Promise.all([
    packStorage(loadPublic(bindings.PACKS, prefix, log)),
    orgId ? packStorage(loadPrivatePacks(bindings, orgId, log)) : Promise.resolve({ packs: [], paged: [] }),
  ]);
  // A public pack whose root was refused: a 503 naming it, not answers that silently lack its lots.
  const [refused] = pub.refused;
  if (refused) throw refused;
  return [...openPacks([...own.packs, ...own.paged], true), ...openPacks([...pub.packs, ...pub.paged])];
}

/**
 * The packs `areas` need in the order every spatial lookup takes them: each pack of `v` in turn, whole, or as the
 * pages of it the areas need. The first pack holding a point answers, so own data wins.
 */
export async function joinVisible(v: VisiblePacks, areas: readonly PackArea[]): Promise<Pack[]> {
  // One call counts every pack's pages against the per-request limit, in list order (the organisation's first).
  const pages = await packStorage(pagesFor(pagedPacks(v), areas));
  const ids = await packStorage(Promise.all(v.map(idOf)));
  return v.flatMap((p, k) => (p.whole ? [p.whole] : pages.filter((page) => page.id === ids[k])));
}

export async function visiblePacks(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
  areas: readonly PackArea[] = [],
): Promise<Pack[]> {
  return joinVisible(await visibleSets(bindings, prefix, orgId, log), areas);
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

/** What an upload's lots take their facts from: the overlays held whole (the organisation's first), then public lots. */
export async function uploadContext(
  bindings: PackBindings,
  prefix: string,
  orgId: string,
  log: Logger = logger,
): Promise<UploadLotsContext> {
  const v = await visibleSets(bindings, prefix, orgId, log);
  return { overlays: wholePacks(v), lots: pagedPacks(v, false) };
}

/**
 * `lots` builds an uploaded lots layer into a v2 pack with its facts (src/assess/upload-lots.ts: packs must not import
 * assess); without it a lots upload is stored as a v2 pack of its one layer.
 */
export function packSource(
  bindings: PackBindings,
  prefix: string,
  log: Logger,
  cacheBytes?: number,
  lots?: UploadLotsEncoder,
): PackSource {
  // The first request of an isolate sizes its page cache (PACK_CACHE_BYTES).
  isolatePageCache(cacheBytes);
  return {
    public: () => visibleSets(bindings, prefix, null, log),
    visible: (orgId) => visibleSets(bindings, prefix, orgId, log),
    forOrg: (orgId, areas) => visiblePacks(bindings, prefix, orgId, log, areas),
    summaries: (orgId) => visibleSummaries(bindings, prefix, orgId, log),
    upload: (input) =>
      uploadPrivatePack(
        bindings,
        input,
        lots ? { encode: lots, context: () => uploadContext(bindings, prefix, input.orgId, log) } : undefined,
      ),
    remove: (orgId, packId) => deletePrivatePack(bindings, orgId, packId),
    building: async () => (await packStorage(loadPublic(bindings.PACKS, prefix, log))).building,
  };
}
