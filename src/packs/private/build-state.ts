// A large upload built off the request (docs/design.md section 9): its state as the organisation's Durable Object keeps
// it, where its source and partial results live in R2, and the queue messages: one chunk of a build, or converting a
// private v1 pack found on read to v2 (convert-v1.ts).
import { PAGED_VERSION } from "../paged/index.ts";
import { privateKey, privatePrefix } from "./store.ts";

/** An upload of more features than this answers 202 and is built by the pack-build queue's consumer. */
export const SYNC_BUILD_MAX_FEATURES = 5_000;

/** Where a pack is: `ready` packs are served; `processing` and `failed` are the newest upload's state. */
export type PackState = "processing" | "ready" | "failed";

export interface PackBuild {
  packId: string;
  version: string;
  state: "processing" | "failed";
  /** 0..1: lots whose facts are computed, over all of them (the last step, storing, reaches 1). */
  progress: number;
  /** For `failed`: a sentence saying why, for the person who uploaded it. */
  failure: string | null;
  /** The custom metadata the built pack will carry (private-meta.ts): GET /packs lists a build from it. */
  meta: Record<string, string>;
  /** Bytes of the stored source (the upload checked and encoded as a v2 pack of its layer). */
  sourceBytes: number;
}

export const BUILDS_PREFIX = "builds/";

/** The upload's checked source (a v2 pack of its layer; v1 for a build queued before that), kept until it is built. */
export const buildSourceKey = (orgId: string, packId: string, version: string) =>
  `${BUILDS_PREFIX}${privateKey(orgId, packId)}`.replace(/\.pack$/, `@${version}/source.pack`);

/** One chunk's computed lot values, JSON, named by the first lot it holds. */
export const buildPartKey = (orgId: string, packId: string, version: string, from: number) =>
  `${BUILDS_PREFIX}${privateKey(orgId, packId)}`.replace(/\.pack$/, `@${version}/part-${from}.json`);

/** Every build object of one pack, whatever its version (what DELETE removes). */
export const buildsOfPack = (orgId: string, packId: string) =>
  `${BUILDS_PREFIX}${privateKey(orgId, packId)}`.replace(/\.pack$/, "@");

export const PACK_BUILD_MESSAGE = "pack_build";

/** One step of a build: compute lots `next` onwards (a chunk), or store the pack once `next` reaches the count. */
export type PackBuildMessage = {
  type: typeof PACK_BUILD_MESSAGE;
  org_id: string;
  pack_id: string;
  version: string;
  next: number;
};

export const buildMessage = (orgId: string, packId: string, version: string, next: number): PackBuildMessage => ({
  type: PACK_BUILD_MESSAGE,
  org_id: orgId,
  pack_id: packId,
  version,
  next,
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The message, or null for a body that is not one (acknowledged and logged, never retried). */
export function readBuildMessage(body: unknown): PackBuildMessage | null {
  if (!isRecord(body) || body.type !== PACK_BUILD_MESSAGE) return null;
  const { org_id, pack_id, version, next } = body;
  if (typeof org_id !== "string" || typeof pack_id !== "string" || typeof version !== "string") return null;
  if (typeof next !== "number" || !Number.isInteger(next) || next < 0) return null;
  return buildMessage(org_id, pack_id, version, next);
}

export const PACK_CONVERT_MESSAGE = "pack_convert";

/** A private v1 pack found on read: stored again as v2 under `key` if R2 still holds it at `etag`. */
export type PackConvertMessage = {
  type: typeof PACK_CONVERT_MESSAGE;
  org_id: string;
  pack_id: string;
  key: string;
  etag: string;
};

export const convertMessage = (orgId: string, packId: string, key: string, etag: string): PackConvertMessage => ({
  type: PACK_CONVERT_MESSAGE,
  org_id: orgId,
  pack_id: packId,
  key,
  etag,
});

/** The message, or null for a body that is not one; its key must be one of its organisation's packs. */
export function readConvertMessage(body: unknown): PackConvertMessage | null {
  if (!isRecord(body) || body.type !== PACK_CONVERT_MESSAGE) return null;
  const { org_id, pack_id, key, etag } = body;
  if (typeof org_id !== "string" || typeof pack_id !== "string") return null;
  if (typeof key !== "string" || typeof etag !== "string" || etag === "") return null;
  if (!key.startsWith(privatePrefix(org_id)) || !key.endsWith(".pack")) return null;
  return convertMessage(org_id, pack_id, key, etag);
}

/** The metadata of a private pack's stored v2 form: what lists it (custom-meta.ts) plus `format: "2"`. */
export const pagedMetadata = (meta: Record<string, string>) => ({ ...meta, format: String(PAGED_VERSION) });
