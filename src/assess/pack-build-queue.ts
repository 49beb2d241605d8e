// The pack-build queue's consumer (src/index.ts dispatches here by queue name): one build step per message, retried
// with a delay on an outage; a step that keeps failing fails its build with a sentence rather than vanishing. A
// message may instead ask a private v1 pack to be stored as v2 (packs/private/convert-v1.ts).
import { getConfig } from "../env.ts";
import { type Logger, logger } from "../logger.ts";
import { type PackConvertMessage, readBuildMessage, readConvertMessage } from "../packs/private/build-state.ts";
import { convertV1Pack } from "../packs/private/convert-v1.ts";
import { uploadContext } from "../packs/visible.ts";
import { type BuildDeps, buildStep, failBuild, failureSentence } from "./pack-build.ts";
import { uploadLotsPack } from "./upload-lots.ts";

export const PACK_BUILDS_QUEUE = "geo-assess-pack-builds";
/** Attempts of one step before its build is marked failed (wrangler.toml's max_retries + 1). */
export const BUILD_ATTEMPTS = 4;

/** One private v1 pack stored as v2; retried on an outage, then given up (logged): the v1 reader still serves it. */
async function convertOne(env: Env, prefix: string, message: Message, m: PackConvertMessage, log: Logger) {
  // Read without the queue: the pack being converted is still v1 in that read, and must not be asked for again.
  const reads = { PACKS: env.PACKS, PRIVATE_PACKS: env.PRIVATE_PACKS };
  const lots = { encode: uploadLotsPack, context: () => uploadContext(reads, prefix, m.org_id, log) };
  try {
    const outcome = await convertV1Pack(env, m, lots);
    log.info("private pack conversion", { key: m.key, pack_id: m.pack_id, outcome });
    message.ack();
  } catch (err) {
    log.error("private pack conversion failed", { key: m.key, attempts: message.attempts, error: err });
    if (message.attempts >= BUILD_ATTEMPTS) message.ack();
    else message.retry({ delaySeconds: 10 * message.attempts });
  }
}

export async function handlePackBuilds(batch: MessageBatch, env: Env): Promise<void> {
  const config = getConfig(env);
  const deps: BuildDeps = {
    bindings: env,
    queue: env.PACK_BUILDS,
    context: (orgId) => uploadContext(env, config.publicPackPrefix, orgId),
    log: logger.with({ queue: batch.queue }),
  };
  for (const message of batch.messages) {
    const convert = readConvertMessage(message.body);
    if (convert) {
      await convertOne(env, config.publicPackPrefix, message, convert, deps.log);
      continue;
    }
    const m = readBuildMessage(message.body);
    if (!m) {
      deps.log.error("pack build message refused", { body: message.body });
      message.ack();
      continue;
    }
    try {
      await buildStep(deps, m);
      message.ack();
    } catch (err) {
      deps.log.error("pack build step failed", { pack_id: m.pack_id, attempts: message.attempts, error: err });
      if (message.attempts >= BUILD_ATTEMPTS) {
        await failBuild(deps, m, failureSentence(err)).catch(() => undefined);
        message.ack();
      } else message.retry({ delaySeconds: 10 * message.attempts });
    }
  }
}
