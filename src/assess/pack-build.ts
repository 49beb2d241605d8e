// One step of a large upload's build (docs/design.md section 9), as the pack-build queue runs it: a chunk of lots has
// its facts computed and kept in R2, then the next chunk is queued; the last step encodes the v2 pack and stores it.
// Each step is bounded work, and a long one yields to the event loop, so no other request waits on it.
import { AppError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { Value } from "../packs/paged/index.ts";
import {
  type PackBuild,
  type PackBuildMessage,
  buildMessage,
  pagedMetadata,
  buildPartKey,
  buildSourceKey,
  buildsOfPack,
} from "../packs/private/build-state.ts";
import { type BuildSource, readBuildSource } from "../packs/private/convert-v1.ts";
import { deleteBuildObjects, storeFinishedPack } from "../packs/private/put.ts";
import type { Pack, PackBindings } from "../packs/types.ts";
import { lotsInfo } from "../packs/upload/stored-form.ts";
import type { UploadLotsContext } from "../packs/upload/lots-encoder.ts";
import { nextTask } from "../lib/next-task.ts";
import {
  FactsPacer,
  YIELD_EVERY_LOTS,
  encodeUploadedLots,
  uploadedLotCount,
  uploadedLotValues,
} from "./upload-lots.ts";

/** Lots one step computes facts for (a few hundred milliseconds of work). */
export const BUILD_CHUNK_LOTS = 2_000;
// Computing facts is most of the work; encoding and storing the pack is the rest of the bar.
const FACTS_SHARE = 0.95;

export type BuildDeps = {
  bindings: PackBindings;
  queue: Queue;
  /** What the organisation sees now: the lots' facts are computed over it. */
  context: (orgId: string) => Promise<UploadLotsContext>;
  log: Logger;
  /** Counts work for tests: lots computed in a step, and the most computed between two yields. */
  counter?: { lots: number; mostBetweenYields: number };
};

/** Facts of lots [from, to), yielding every YIELD_EVERY_LOTS lots or YIELD_EVERY_POINTS points clipped. */
async function chunkValues(deps: BuildDeps, pack: Pack, context: UploadLotsContext, from: number, to: number) {
  const out: Value[][] = [];
  const pacer = new FactsPacer();
  for (let i = from; i < to; i++) {
    await pacer.next();
    out.push(await uploadedLotValues(pack, context, i));
    if (deps.counter) {
      deps.counter.lots += 1;
      deps.counter.mostBetweenYields = Math.max(deps.counter.mostBetweenYields, pacer.lots);
    }
  }
  return out;
}

async function readParts(bucket: R2Bucket, m: PackBuildMessage, count: number): Promise<Value[][]> {
  const all: Value[][] = [];
  for (let from = 0; from < count; from += BUILD_CHUNK_LOTS) {
    const part = await bucket.get(buildPartKey(m.org_id, m.pack_id, m.version, from));
    if (!part) throw new Error(`build part ${from} is missing`);
    for (const row of await part.json<Value[][]>()) all.push(row);
  }
  return all;
}

/** The v2 pack of a lots upload from its computed parts, yielding as it goes; any other layer is stored as built. */
async function finish(deps: BuildDeps, m: PackBuildMessage, build: PackBuild, source: BuildSource) {
  const { bindings } = deps;
  const { pack } = source;
  const count = uploadedLotCount(pack);
  let bytes: Uint8Array;
  if (count > 0) {
    const values = await readParts(bindings.PACKS, m, count);
    bytes = await encodeUploadedLots(
      pack,
      async (i) => {
        if (i % (YIELD_EVERY_LOTS * 4) === 0) await nextTask();
        return values[i] as Value[];
      },
      lotsInfo(pack),
    );
  } else bytes = await source.layers();
  // Deleted or replaced while it was being built: nothing is stored.
  const still = await stubOf(deps, m.org_id).getBuild(m.pack_id);
  if (still?.version !== m.version) return;
  const meta = pagedMetadata(build.meta);
  await storeFinishedPack(bindings, m.org_id, { packId: m.pack_id, version: m.version, bytes, meta });
  await stubOf(deps, m.org_id).dropBuild(m.pack_id, m.version);
}

// The source this isolate read last, by key and etag: a build's steps mostly land on one isolate, and reading it whole
// decodes every page.
let lastSource: { id: string; source: BuildSource } | undefined;

async function sourceOf(bucket: R2Bucket, key: string): Promise<BuildSource | null> {
  const obj = await bucket.get(key);
  if (!obj) return null;
  const id = `${key}#${obj.etag}`;
  if (lastSource?.id === id) {
    await obj.body.cancel();
    return lastSource.source;
  }
  const source = readBuildSource(new Uint8Array(await obj.arrayBuffer()), key);
  lastSource = { id, source };
  return source;
}

const stubOf = (deps: BuildDeps, orgId: string) => {
  const ns = deps.bindings.PRIVATE_PACKS;
  return ns.get(ns.idFromName(orgId));
};

const versionPrefix = (m: PackBuildMessage) => `${buildsOfPack(m.org_id, m.pack_id)}${m.version}/`;

/** A sentence for the uploader: the refusal's own (it names the limit), else a generic one. */
export function failureSentence(err: unknown): string {
  if (err instanceof AppError && err.kind !== "unavailable") return err.detail;
  return "The pack could not be built: upload it again, and if it fails again tell support";
}

/** Marks the build failed with a sentence, and deletes its objects. */
export async function failBuild(deps: BuildDeps, m: PackBuildMessage, failure: string): Promise<void> {
  await stubOf(deps, m.org_id).updateBuild(m.pack_id, m.version, { state: "failed", failure });
  await deleteBuildObjects(deps.bindings.PACKS, versionPrefix(m));
}

/**
 * Runs one step of a build. A refusal (the built pack over the byte cap, say) fails the build with its sentence; an
 * outage throws, so the queue retries the step.
 */
export async function buildStep(deps: BuildDeps, m: PackBuildMessage): Promise<void> {
  const { bindings, log } = deps;
  const stub = stubOf(deps, m.org_id);
  const build = await stub.getBuild(m.pack_id);
  if (!build || build.version !== m.version || build.state !== "processing") {
    // Deleted, failed or superseded by a newer upload: this version's objects go.
    await deleteBuildObjects(bindings.PACKS, versionPrefix(m));
    log.info("pack build dropped", { pack_id: m.pack_id, version: m.version });
    return;
  }
  const source = await sourceOf(bindings.PACKS, buildSourceKey(m.org_id, m.pack_id, m.version));
  if (!source) return failBuild(deps, m, "The upload's stored source is gone: upload it again");
  const count = uploadedLotCount(source.pack);
  try {
    if (m.next < count) {
      const to = Math.min(count, m.next + BUILD_CHUNK_LOTS);
      const values = await chunkValues(deps, source.pack, await deps.context(m.org_id), m.next, to);
      await bindings.PACKS.put(buildPartKey(m.org_id, m.pack_id, m.version, m.next), JSON.stringify(values));
      if (!(await stub.updateBuild(m.pack_id, m.version, { progress: (to / count) * FACTS_SHARE }))) return;
      await deps.queue.send(buildMessage(m.org_id, m.pack_id, m.version, to));
      return;
    }
    await finish(deps, m, build, source);
    lastSource = undefined;
    await deleteBuildObjects(bindings.PACKS, versionPrefix(m));
  } catch (err) {
    if (err instanceof AppError && err.kind !== "unavailable") return failBuild(deps, m, failureSentence(err));
    throw err;
  }
}
