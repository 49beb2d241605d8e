// POST /packs and DELETE /packs/{pack_id}: an organisation's own data, checked, reprojected, built into a pack and stored.
import { ConflictError, NotFoundError, TooLargeError, UnprocessableError } from "../errors.ts";
import { decodePack } from "./decode.ts";
import { isUuid } from "../lib/uuid.ts";
import { encodePack } from "./encode.ts";
import type { LayerName } from "./layer-specs.ts";
import { MAX_SOURCE_CHARS, PRIVATE_LICENCE, attributionOf, boundText, packMetadata } from "./private-meta.ts";
import { invalidatePrivatePacks, packStorage, privateKey, releasePackSlot, reservePackSlot } from "./private-store.ts";
import type { PrivatePackEntry } from "./private-cache.ts";
import { privatePackEntries } from "./private.ts";
import { nextVersion, versionKey } from "./private-versions.ts";
import { publishMessage } from "./publish-message.ts";
import { readGeoJson } from "./read-geojson.ts";
import { readShapefileZip } from "./read-shapefile.ts";
import { UploadLayerBuilder } from "./upload-layer.ts";
import type { BBox, LayerInput, Pack, PackBindings, UploadInfo } from "./types.ts";
import type { UploadLots } from "./upload-lots.ts";
import { FORMAT_VERSION as PAGED_VERSION } from "./paged/schema.ts";

/** Limits of architecture section 9. */
export const MAX_PACK_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_PRIVATE_PACKS = 20;

export interface PackUpload {
  orgId: string;
  /** Who uploaded it, as shown in GET /packs (their e-mail, else their user id). */
  uploadedBy: string;
  file: Blob;
  fileName: string;
  name: string;
  layer: LayerName;
  /** Pack field -> property of the uploaded features. */
  fields?: Record<string, string>;
}

export interface UploadedPack {
  pack_id: string;
  name: string;
  version: string;
  layers: string[];
  features: number;
  bbox: BBox;
  size: number;
  uploaded_by: string;
  uploaded_at: string;
}

const tooMany = () =>
  new ConflictError(
    `This organisation already has ${MAX_PRIVATE_PACKS} private packs (the most allowed): delete one first`,
  );

async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** Reads the upload into a layer: a zip is a Shapefile, anything else must be a GeoJSON FeatureCollection. */
async function buildLayer(input: PackUpload): Promise<UploadLayerBuilder> {
  // GeoJSON is WGS84 (RFC 7946) unless it carries a legacy crs member.
  const builder = new UploadLayerBuilder(input.layer, null, input.fields);
  if (await isZip(input.file)) await readShapefileZip(new Uint8Array(await input.file.arrayBuffer()), builder);
  else await readGeoJson(input.file.stream(), builder);
  if (builder.count === 0) throw new UnprocessableError("The upload holds no features", ["body", "file"], "empty");
  return builder;
}

// A sortable version: tiles carry it in their URL, so a cache never mixes two uploads.
const versionOf = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** What an upload's pack is built from, besides its features. */
export type PackHeader = Pick<PackUpload, "orgId" | "uploadedBy" | "fileName" | "name" | "layer">;

/** A built private pack: its R2 key, bytes and custom metadata (what GET /packs lists), and the 201 answer. */
export interface BuiltPack {
  key: string;
  bytes: Uint8Array;
  /** The v1 pack the upload was first built as, decoded (what a v2 lots pack is then built from). */
  pack: Pack;
  customMetadata: Record<string, string>;
  uploaded: UploadedPack;
}

/** Encodes `layer` as the organisation's pack `packId`, with the metadata that lists it without reading it. */
export function buildPrivatePack(
  input: PackHeader,
  layer: LayerInput,
  packId: string,
  at = new Date(),
  version = versionOf(at),
): BuiltPack {
  const upload: UploadInfo = {
    layer: input.layer,
    uploaded_by: input.uploadedBy,
    uploaded_at: at.toISOString(),
    // A file name is the client's to choose: kept bounded, like every free string.
    source: boundText(input.fileName, MAX_SOURCE_CHARS),
  };
  const bytes = encodePack({
    id: packId,
    version,
    meta: { title: input.name, attribution: attributionOf(input.uploadedBy), licence: PRIVATE_LICENCE, upload },
    layers: [layer],
    order: "index",
  });
  // Decoding what will be stored proves it reads back, and gives the bbox its index computed.
  const pack = decodePack(bytes);
  const { bbox } = pack;
  const features =
    layer.geometry.kind === "point" ? layer.geometry.coords.length / 2 : layer.geometry.featureOffsets.length - 1;
  const customMetadata = packMetadata({
    packId,
    version,
    name: input.name,
    kind: layer.geometry.kind,
    features,
    bbox,
    upload,
  });
  return {
    key: privateKey(input.orgId, packId),
    bytes,
    pack,
    customMetadata,
    uploaded: {
      pack_id: packId,
      name: input.name,
      version,
      layers: [input.layer],
      features,
      bbox,
      size: bytes.byteLength,
      uploaded_by: input.uploadedBy,
      uploaded_at: upload.uploaded_at,
    },
  };
}

/**
 * A lots upload as a v2 lots pack (architecture section 10: private packs use the public format), read by range
 * like public lots; every other layer stays a v1 pack, since v2 holds lots only. Same id, version and metadata,
 * plus `format: "2"` so a reader knows it without a read.
 */
async function storedForm(built: BuiltPack, lots: UploadLots | undefined): Promise<BuiltPack> {
  const { pack } = built;
  if (!lots || !pack.layers.has("parcels")) return built;
  const { title, attribution, licence, upload } = pack.meta;
  const info: Record<string, string> = { title, attribution, licence, ...upload };
  const bytes = await lots.encode(pack, await lots.context(), info);
  return {
    ...built,
    bytes,
    customMetadata: { ...built.customMetadata, format: String(PAGED_VERSION) },
    uploaded: { ...built.uploaded, size: bytes.byteLength },
  };
}

const putPack = (bindings: PackBindings, key: string, bytes: Uint8Array | ArrayBuffer, meta: Record<string, string>) =>
  bindings.PACKS.put(key, bytes, {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: meta,
  });

/** The organisation's pack of this name (the newest, should there be several), or undefined. */
async function packNamed(bindings: PackBindings, orgId: string, name: string): Promise<PrivatePackEntry | undefined> {
  const same = (await privatePackEntries(bindings, orgId)).filter((e) => e.meta.name === name && e.meta.pack_id);
  return same.sort((a, b) => ((a.meta.version ?? "") < (b.meta.version ?? "") ? 1 : -1))[0];
}

/**
 * A new version of a pack the organisation has: same pack_id, a higher version. Both versions are kept under
 * versions/ and the publish is queued before the live object changes, so a failure anywhere changes nothing seen.
 */
async function replacePrivatePack(
  bindings: PackBindings,
  input: PackUpload,
  old: PrivatePackEntry,
  lots: UploadLots | undefined,
): Promise<UploadedPack> {
  const packId = old.meta.pack_id as string;
  const layer = (await buildLayer(input)).finish();
  const before = await packStorage(bindings.PACKS.get(old.key));
  if (!before) throw new NotFoundError("Pack not found");
  const bytes = await before.arrayBuffer();
  const oldVersion = old.meta.version ?? decodePack(bytes).version;
  const at = new Date();
  const built = await storedForm(
    buildPrivatePack(input, layer, packId, at, nextVersion(versionOf(at), oldVersion)),
    lots,
  );
  const fromKey = versionKey(input.orgId, packId, oldVersion);
  const toKey = versionKey(input.orgId, packId, built.uploaded.version);
  if (!(await packStorage(bindings.PACKS.head(fromKey)))) {
    await packStorage(putPack(bindings, fromKey, bytes, before.customMetadata ?? {}));
  }
  await packStorage(putPack(bindings, toKey, built.bytes, built.customMetadata));
  if (bindings.PUBLISHES) {
    await packStorage(bindings.PUBLISHES.send(publishMessage(packId, input.orgId, fromKey, toKey)));
  }
  await packStorage(putPack(bindings, built.key, built.bytes, built.customMetadata));
  await packStorage(invalidatePrivatePacks(bindings, input.orgId));
  return built.uploaded;
}

/**
 * Builds and stores a private pack; nothing is stored when any check fails. A `name` the organisation already
 * has replaces that pack (architecture section 12) rather than adding one.
 */
export async function uploadPrivatePack(
  bindings: PackBindings,
  input: PackUpload,
  lots?: UploadLots,
): Promise<UploadedPack> {
  if (input.file.size > MAX_PACK_UPLOAD_BYTES) {
    throw new TooLargeError(`The upload is larger than ${MAX_PACK_UPLOAD_BYTES / 1024 / 1024} MiB`);
  }
  const existing = await packStorage(packNamed(bindings, input.orgId, input.name));
  if (existing) return replacePrivatePack(bindings, input, existing, lots);
  const packId = crypto.randomUUID();
  const key = privateKey(input.orgId, packId);
  // The organisation's Durable Object hands out the 20 slots one at a time, so racing uploads cannot overfill it.
  if (!(await packStorage(reservePackSlot(bindings, input.orgId, key, MAX_PRIVATE_PACKS)))) throw tooMany();
  try {
    const built = await storedForm(buildPrivatePack(input, (await buildLayer(input)).finish(), packId), lots);
    await packStorage(putPack(bindings, key, built.bytes, built.customMetadata));
    return built.uploaded;
  } finally {
    // Stored (R2 counts it now) or refused: the slot goes back, and every isolate sees the change at once.
    await packStorage(releasePackSlot(bindings, input.orgId, key));
  }
}

/** Deletes one of the organisation's packs; another organisation's, a public one or an unknown id is 404. */
export async function deletePrivatePack(bindings: PackBindings, orgId: string, packId: string): Promise<void> {
  // Uploaded packs have UUID ids: anything else (a public pack's id) is not this organisation's.
  if (!isUuid(packId)) throw new NotFoundError("Pack not found");
  const key = privateKey(orgId, packId);
  if (!(await packStorage(bindings.PACKS.head(key)))) throw new NotFoundError("Pack not found");
  await packStorage(bindings.PACKS.delete(key));
  await packStorage(invalidatePrivatePacks(bindings, orgId));
}
