// The packs a request may use: public packs, plus the organisation's private packs when it has one.
import { UnavailableError } from "../errors.ts";
import { type Logger, logger } from "../logger.ts";
import { loadPrivatePacks } from "./private.ts";
import { loadPublicPacks } from "./registry.ts";
import type { Pack, PackBindings } from "./types.ts";
import { type PackUpload, type UploadedPack, deletePrivatePack, uploadPrivatePack } from "./upload.ts";

export type { PackBindings };

export interface PackSource {
  /** The public packs only. */
  public(): Promise<Pack[]>;
  /** Public packs plus the organisation's private ones (public only when `orgId` is null). */
  forOrg(orgId: string | null): Promise<Pack[]>;
  /** Builds and stores an organisation's pack (POST /packs); every route sees it at once. */
  upload(input: PackUpload): Promise<UploadedPack>;
  /** Deletes an organisation's pack (DELETE /packs/{pack_id}); 404 when it holds no such pack. */
  remove(orgId: string, packId: string): Promise<void>;
}

/** R2 or the pack cache failing is an outage (503 Service unavailable), not a bug in the request (500). */
async function storage<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (err) {
    throw new UnavailableError("pack storage", { cause: err, detail: "Service unavailable" });
  }
}

export async function visiblePacks(
  bindings: PackBindings,
  prefix: string,
  orgId: string | null,
  log: Logger = logger,
): Promise<Pack[]> {
  const [publicPacks, privatePacks] = await Promise.all([
    storage(loadPublicPacks(bindings.PACKS, prefix, log)),
    orgId ? storage(loadPrivatePacks(bindings.PRIVATE_PACKS, orgId, log)) : Promise.resolve([]),
  ]);
  // Private packs first: an organisation's own data wins over public data where both answer.
  return [...privatePacks, ...publicPacks];
}

export function packSource(bindings: PackBindings, prefix: string, log: Logger): PackSource {
  return {
    public: () => storage(loadPublicPacks(bindings.PACKS, prefix, log)),
    forOrg: (orgId) => visiblePacks(bindings, prefix, orgId, log),
    upload: (input) => uploadPrivatePack(bindings, input),
    remove: (orgId, packId) => deletePrivatePack(bindings, orgId, packId),
  };
}
