// POST /packs and DELETE /packs/{pack_id}: an organisation's own data, checked, reprojected, built into a pack and stored.
import { ConflictError, NotFoundError, TooLargeError, UnprocessableError } from "../../errors.ts";
import { isUuid } from "../../lib/uuid.ts";
import { nextTask } from "../../lib/next-task.ts";
import { columnarOf, encodeColumnar, forgetRoot, MemorySource, PagedPack } from "../paged/index.ts";
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
import type { BBox, LayerInput, PackBindings, UploadInfo } from "../types.ts";
import type { UploadLots } from "./lots-encoder.ts";
import { storedBytes } from "./stored-form.ts";

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

let rootReads = 0;

/** The bbox the root of a v2 pack in memory gives (its header and root checked), kept out of the isolate's memo. */
async function rootBbox(bytes: Uint8Array, key: string): Promise<BBox> {
  const source = new MemorySource(`upload:${key}:${++rootReads}`, bytes);
  try {
    return [...(await new PagedPack(source).snapshot()).root.meta.bbox] as BBox;
  } finally {
    forgetRoot(source.key);
  }
}

/**
 * Encodes `layer` as the organisation's pack `packId`: a v2 pack of that one layer (what a large upload's build starts
 * from, and what is stored unless it is lots), with the metadata that lists it without reading it and the 201 answer.
 */
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
  const key = privateKey(input.orgId, packId);
  // 100,000 lots take seconds to encode: it yields before and between its pages, so other requests run meanwhile.
  const bytes = await encodeColumnar([columnarOf(layer)], {
    id: packId,
    version,
    meta: { title: input.name, attribution: attributionOf(input.uploadedBy), licence: PRIVATE_LICENCE, upload },
    pace: nextTask,
  });
  const bbox = await rootBbox(bytes, key);
  const features =
    layer.geometry.kind === "point" ? layer.geometry.coords.length / 2 : layer.geometry.featureOffsets.length - 1;
  const customMetadata = pagedMetadata(
    packMetadata({ packId, version, name: input.name, kind: layer.geometry.kind, features, bbox, upload }),
  );
  return {
    key,
    bytes,
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

/** The upload as it is stored (stored-form.ts): a lots pack with its facts, or its pack of layers as built. */
async function storedForm(built: BuiltPack, lots: UploadLots | undefined): Promise<BuiltPack> {
  const bytes = await storedBytes(built.bytes, built.key, lots);
  return { ...built, bytes, uploaded: { ...built.uploaded, size: bytes.byteLength } };
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
