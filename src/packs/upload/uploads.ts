// POST /packs and DELETE /packs/{pack_id}: an organisation's own data, checked, reprojected, built into a pack and stored.
import { ConflictError, NotFoundError, TooLargeError, UnprocessableError } from "../../errors.ts";
import { decodePack } from "../v1/decode.ts";
import { isUuid } from "../../lib/uuid.ts";
import { encodePackPaced } from "../v1/encode.ts";
import { v1ToV2 } from "../v1/to-v2.ts";
import { nextTask } from "../../lib/next-task.ts";
import type { LayerName } from "./layer-specs.ts";
import { MAX_SOURCE_CHARS, PRIVATE_LICENCE, attributionOf, boundText, packMetadata } from "../private/custom-meta.ts";
import { packStorage, privateKey, releasePackSlot, reservePackSlot } from "../private/store.ts";
import { SYNC_BUILD_MAX_FEATURES, pagedMetadata } from "../private/build-state.ts";
import { MAX_PACK_UPLOAD_BYTES, MAX_PRIVATE_PACKS, deleteWholePack, storeFinishedPack } from "../private/put.ts";
import { privatePackEntries } from "../private/load.ts";
import { nextVersion } from "../private/kept-versions.ts";
import { queueBuild } from "./queue.ts";
import type { BuiltPack, UploadedPack } from "./uploaded.ts";
import { readGeoJson } from "./read-geojson.ts";
import { readShapefileZip } from "./read-shapefile.ts";
import { UploadLayerBuilder } from "./build-layer.ts";
import type { LayerInput, Pack, PackBindings, UploadInfo } from "../types.ts";
import type { UploadLots } from "./lots-encoder.ts";

export { MAX_PACK_UPLOAD_BYTES, MAX_PRIVATE_PACKS };

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
/** Encodes `layer` as the organisation's pack `packId`, with the metadata that lists it without reading it. */
export async function buildPrivatePack(
  input: PackHeader,
  layer: LayerInput,
  packId: string,
  at = new Date(),
  version = versionOf(at),
): Promise<BuiltPack> {
  const upload: UploadInfo = {
    layer: input.layer,
    uploaded_by: input.uploadedBy,
    uploaded_at: at.toISOString(),
    // A file name is the client's to choose: kept bounded, like every free string.
    source: boundText(input.fileName, MAX_SOURCE_CHARS),
  };
  // 100,000 lots take a few hundred milliseconds to encode: other requests run between its steps.
  const bytes = await encodePackPaced({
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
      state: "ready",
      progress: 1,
    },
  };
}

/** The root's `info` of a v2 lots pack built from the v1 upload: its title, attribution, licence and provenance. */
export function lotsInfo(pack: Pack): Record<string, string> {
  const { title, attribution, licence, upload } = pack.meta;
  return { title, attribution, licence, ...upload };
}

/**
 * What is stored is v2 (docs/design.md section 10: private packs use the public format): a lots upload as a lots pack
 * with its facts, read by range like public lots; any other layer as a pack of layers, read whole. Same id, version
 * and metadata, plus `format: "2"` so a reader knows it without a read.
 */
async function storedForm(built: BuiltPack, lots: UploadLots | undefined): Promise<BuiltPack> {
  const { pack } = built;
  const bytes =
    lots && pack.layers.has("parcels")
      ? await lots.encode(pack, await lots.context(), lotsInfo(pack))
      : await v1ToV2(pack, { pace: nextTask });
  return {
    ...built,
    bytes,
    customMetadata: pagedMetadata(built.customMetadata),
    uploaded: { ...built.uploaded, size: bytes.byteLength },
  };
}

/** The pack id and newest version under `name`: a stored pack's, or a build's (a large upload still processing). */
async function packNamed(bindings: PackBindings, orgId: string, name: string) {
  const ns = bindings.PRIVATE_PACKS;
  const [entries, builds] = await Promise.all([
    privatePackEntries(bindings, orgId),
    ns.get(ns.idFromName(orgId)).builds(),
  ]);
  const named = [
    ...entries.flatMap((e) =>
      e.meta.name === name && e.meta.pack_id ? [{ id: e.meta.pack_id, v: e.meta.version }] : [],
    ),
    ...builds.flatMap((b) => (b.meta.name === name ? [{ id: b.packId, v: b.version }] : [])),
  ];
  return named.sort((a, b) => ((a.v ?? "") < (b.v ?? "") ? 1 : -1))[0];
}

/**
 * Checks the upload and builds it: up to SYNC_BUILD_MAX_FEATURES features in the request (201, served at once); more
 * are stored as their checked source and built by the pack-build queue (202, `processing`). A `name` the organisation
 * already has is a new version of that pack (docs/design.md section 12), which keeps serving its old version until the
 * new one is ready. Nothing is stored when any check fails.
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
  const packId = existing?.id ?? crypto.randomUUID();
  const key = privateKey(input.orgId, packId);
  // The organisation's Durable Object hands out the 20 slots one at a time, so racing uploads cannot overfill it.
  if (!existing && !(await packStorage(reservePackSlot(bindings, input.orgId, key, MAX_PRIVATE_PACKS))))
    throw tooMany();
  try {
    const layer = (await buildLayer(input)).finish();
    const at = new Date();
    const built = await buildPrivatePack(input, layer, packId, at, nextVersion(versionOf(at), existing?.v));
    if (built.uploaded.features > SYNC_BUILD_MAX_FEATURES && bindings.PACK_BUILDS) {
      return await queueBuild(bindings, bindings.PACK_BUILDS, input.orgId, built);
    }
    const stored = await storedForm(built, lots);
    await storeFinishedPack(bindings, input.orgId, {
      packId,
      version: stored.uploaded.version,
      bytes: stored.bytes,
      meta: stored.customMetadata,
    });
    return stored.uploaded;
  } finally {
    // Stored, queued (the build holds the pack's place) or refused: the slot goes back, seen everywhere at once.
    if (!existing) await packStorage(releasePackSlot(bindings, input.orgId, key));
  }
}

/** Deletes one of the organisation's packs, every version and any build; another organisation's or unknown is 404. */
export async function deletePrivatePack(bindings: PackBindings, orgId: string, packId: string): Promise<void> {
  // Uploaded packs have UUID ids: anything else (a public pack's id) is not this organisation's.
  if (!isUuid(packId)) throw new NotFoundError("Pack not found");
  const ns = bindings.PRIVATE_PACKS;
  const [live, build] = await Promise.all([
    packStorage(bindings.PACKS.head(privateKey(orgId, packId))),
    packStorage(ns.get(ns.idFromName(orgId)).getBuild(packId)),
  ]);
  if (!live && !build) throw new NotFoundError("Pack not found");
  await deleteWholePack(bindings, orgId, packId);
}
