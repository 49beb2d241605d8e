// The packs a request may use: public packs, plus the organisation's private packs when it has one.
import { type Logger, logger } from "../logger.ts";
import { loadPrivatePacks, privatePackSummaries } from "./private.ts";
import { packStorage } from "./private-store.ts";
import { loadPublicPacks } from "./registry.ts";
import { type PackSummary, summarisePack } from "./summary.ts";
import type { Pack, PackBindings } from "./types.ts";
import { type PackUpload, type UploadedPack, deletePrivatePack, uploadPrivatePack } from "./upload.ts";

export type { PackBindings };

export interface PackSource {
  /** The public packs only. */
  public(): Promise<Pack[]>;
  /** Public packs plus the organisation's private ones (public only when `orgId` is null). */
  forOrg(orgId: string | null): Promise<Pack[]>;
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
): Promise<Pack[]> {
  const [publicPacks, privatePacks] = await Promise.all([
    packStorage(loadPublicPacks(bindings.PACKS, prefix, log)),
    orgId ? packStorage(loadPrivatePacks(bindings, orgId, log)) : Promise.resolve([]),
  ]);
  // Private packs first: an organisation's own data wins over public data where both answer.
  return [...privatePacks, ...publicPacks];
}

export async function visibleSummaries(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
): Promise<PackSummary[]> {
  const [publicPacks, privateList] = await Promise.all([
    packStorage(loadPublicPacks(bindings.PACKS, prefix, log)),
    orgId ? packStorage(privatePackSummaries(bindings, orgId, log)) : Promise.resolve([]),
  ]);
  return [...privateList, ...publicPacks.map(summarisePack)];
}

export function packSource(bindings: PackBindings, prefix: string, log: Logger): PackSource {
  return {
    public: () => packStorage(loadPublicPacks(bindings.PACKS, prefix, log)),
    forOrg: (orgId) => visiblePacks(bindings, prefix, orgId, log),
    summaries: (orgId) => visibleSummaries(bindings, prefix, orgId, log),
    upload: (input) => uploadPrivatePack(bindings, input),
    remove: (orgId, packId) => deletePrivatePack(bindings, orgId, packId),
  };
}
