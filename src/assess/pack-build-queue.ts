// The pack-build queue's consumer (src/index.ts dispatches here by queue name): one build step per message, retried
// with a delay on an outage; a step that keeps failing fails its build with a sentence rather than vanishing.
import { getConfig } from "../env.ts";
import { logger } from "../logger.ts";
import { readBuildMessage } from "../packs/private/build-state.ts";
import { visibleSets } from "../packs/visible.ts";
import { type BuildDeps, buildStep, failBuild, failureSentence } from "./pack-build.ts";

export const PACK_BUILDS_QUEUE = "geo-assess-pack-builds";
/** Attempts of one step before its build is marked failed (wrangler.toml's max_retries + 1). */
export const BUILD_ATTEMPTS = 4;

export async function handlePackBuilds(batch: MessageBatch, env: Env): Promise<void> {
  const config = getConfig(env);
  const deps: BuildDeps = {
    bindings: env,
    queue: env.PACK_BUILDS,
    context: async (orgId) => {
      const v = await visibleSets(env, config.publicPackPrefix, orgId);
      return { overlays: [...v.own, ...v.packs], lots: v.paged };
    },
    log: logger.with({ queue: batch.queue }),
  };
  for (const message of batch.messages) {
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
