// The Worker's queue handler (src/index.ts dispatches here): publishes are compared and recorded one message at a
// time, each acknowledged alone or retried with a growing delay; the dead-letter queue's messages are kept.
import { idpAdmin } from "../auth/idp-admin.ts";
import { type DbHandle, openConfigured } from "../db/client.ts";
import { type Config, getConfig } from "../env.ts";
import { type Logger, logger } from "../logger.ts";
import { loadPublic } from "../packs/registry.ts";
import { comparePublish } from "./consumer.ts";
import { keepDeadLetters } from "./dead-letters.ts";
import { deliverDigest } from "./deliver.ts";
import { readPublish } from "./publish.ts";
import { openVersion } from "./versions.ts";

export const PUBLISHES_QUEUE = "geo-assess-publishes";
export const DEAD_LETTER_QUEUE = "geo-assess-publishes-dlq";

/** Seconds before a failed publish is tried again: 15, 30, 60, 120, 240 (then the dead-letter queue), at most 15 min. */
export function retryDelay(attempts: number): number {
  return Math.min(900, 15 * 2 ** Math.max(0, attempts - 1));
}

function openDb(env: Env, config: Config): DbHandle {
  // `HYPERDRIVE` is optional and not in the generated Env (README: Database connections).
  const handle = openConfigured((env as { HYPERDRIVE?: Hyperdrive }).HYPERDRIVE, config.databaseUrl, config.dbWsProxy);
  if (!handle) throw new Error("neither HYPERDRIVE nor DATABASE_URL is set");
  return handle;
}

async function onePublish(env: Env, config: Config, log: Logger, message: Message): Promise<void> {
  const parsed = await readPublish(message.body, env.PACKS, config.publicPackPrefix);
  if ("ignore" in parsed) {
    log.info("publish message ignored", { reason: parsed.ignore });
    return;
  }
  if ("invalid" in parsed) {
    // Retrying cannot mend a malformed body: acknowledged, and logged with the body for a person.
    log.error("publish message refused", { reason: parsed.invalid, body: message.body });
    return;
  }
  const { request } = parsed;
  const [from, to, pub] = await Promise.all([
    openVersion(env.PACKS, request.fromKey),
    openVersion(env.PACKS, request.toKey),
    loadPublic(env.PACKS, config.publicPackPrefix, log),
  ]);
  const handle = openDb(env, config);
  try {
    const db = handle.db;
    const email = env.ALERT_EMAIL;
    const idp = idpAdmin(config.identityProvider);
    const outcome = await comparePublish(
      { db, log, deliver: (args) => deliverDigest({ db, idp, email, config: config.alerts, log }, args) },
      {
        packId: request.packId,
        orgId: request.orgId,
        from,
        to,
        context: pub.packs.filter((p) => p.id !== request.packId),
        gazetteer: pub.packs,
      },
    );
    log.info("publish compared", { pack_id: request.packId, from: from.version, to: to.version, ...outcome });
  } finally {
    await handle.close().catch(() => {});
  }
}

async function publishes(batch: MessageBatch, env: Env, config: Config): Promise<void> {
  for (const message of batch.messages) {
    const log = logger.with({ queue: batch.queue, message_id: message.id, attempts: message.attempts });
    try {
      await onePublish(env, config, log, message);
      message.ack();
    } catch (err) {
      const delaySeconds = retryDelay(message.attempts);
      log.error("publish failed: retrying", { error: err, delay_s: delaySeconds });
      message.retry({ delaySeconds });
    }
  }
}

async function deadLetters(batch: MessageBatch, env: Env, config: Config): Promise<void> {
  const log = logger.with({ queue: batch.queue });
  const letters = batch.messages.map((m) => ({ id: m.id, body: m.body, attempts: m.attempts }));
  let handle: DbHandle | undefined;
  try {
    handle = openDb(env, config);
    await keepDeadLetters(handle.db, log, letters);
    batch.ackAll();
  } catch (err) {
    log.error("dead letters not kept: retrying", { error: err, messages: letters.length });
    batch.retryAll({ delaySeconds: 60 });
  } finally {
    await handle?.close().catch(() => {});
  }
}

export async function handleQueue(batch: MessageBatch, env: Env): Promise<void> {
  const config = getConfig(env);
  if (batch.queue === DEAD_LETTER_QUEUE) return deadLetters(batch, env, config);
  if (batch.queue === PUBLISHES_QUEUE) return publishes(batch, env, config);
  logger.error("messages of an unknown queue left to retry", { queue: batch.queue, messages: batch.messages.length });
  batch.retryAll();
}
