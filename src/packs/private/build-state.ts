// A large upload built off the request (docs/design.md section 9): its state as the organisation's Durable Object keeps
// it, where its source and partial results live in R2, and the queue message that carries one chunk of the build.
import { PAGED_VERSION } from "../paged/index.ts";
import { privateKey } from "./store.ts";

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
  /** Bytes of the stored source (the upload checked and built as a v1 pack). */
  sourceBytes: number;
}

export const BUILDS_PREFIX = "builds/";

/** The upload's checked source (a v1 pack), kept until its version is built. */
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

/** The metadata of the stored v2 form of a lots upload: the v1 metadata plus `format: "2"`. */
export const pagedMetadata = (meta: Record<string, string>) => ({ ...meta, format: String(PAGED_VERSION) });
