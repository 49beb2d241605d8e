// The Worker's queue handler (src/index.ts dispatches here): a publish is compared and recorded one chunk of alerts
// per message (each chunk queues the next before it is acknowledged), a digest message flushes one alert's held
// e-mails; each message is acknowledged alone or retried with a growing delay; dead letters are kept.
import { idpAdmin } from "../auth/idp-admin.ts";
import { type DbHandle, openConfigured } from "../db/client.ts";
import { type Config, getConfig } from "../env.ts";
import { type Logger, logger } from "../logger.ts";
import { loadPublic } from "../packs/registry.ts";
import { comparePublish } from "./consumer.ts";
import { keepDeadLetters } from "./dead-letters.ts";
import { type DigestDeps, DigestMessageSchema, digestMessage, flushDigest, mailChanges } from "./digests.ts";
import { nextChunk, readPublish } from "./publish.ts";
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

function digestDeps(env: Env, config: Config, log: Logger, handle: DbHandle): DigestDeps {
  return {
    db: handle.db,
    idp: idpAdmin(config.identityProvider),
    email: env.ALERT_EMAIL,
    config: config.alerts,
    log,
    schedule: async (alertId, delaySeconds) => {
      await env.PUBLISHES.send(digestMessage(alertId), { delaySeconds });
    },
  };
}

async function oneDigest(env: Env, config: Config, log: Logger, alertId: string): Promise<void> {
  const handle = openDb(env, config);
  try {
    const outcome = await flushDigest(digestDeps(env, config, log, handle), alertId);
    log.info("alert digest flushed", { alert_id: alertId, outcome });
  } finally {
    await handle.close().catch(() => {});
  }
}

async function onePublish(env: Env, config: Config, log: Logger, message: Message): Promise<void> {
  const digest = DigestMessageSchema.safeParse(message.body);
  if (digest.success) return oneDigest(env, config, log, digest.data.alert_id);
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
    const deps = digestDeps(env, config, log, handle);
    const outcome = await comparePublish(
      { db: handle.db, log, mail: (args) => mailChanges(deps, args) },
      {
        packId: request.packId,
        orgId: request.orgId,
        from,
        to,
        context: pub.packs.filter((p) => p.id !== request.packId),
        gazetteer: pub.packs,
        after: request.after,
      },
    );
    // Queued before this one is acknowledged: a failure here retries this chunk (idempotent), never loses the rest.
    if (outcome.next) await env.PUBLISHES.send(nextChunk(request, outcome.next));
    log.info("publish chunk compared", {
      pack_id: request.packId,
      from: from.version,
      to: to.version,
      after: request.after,
      ...outcome,
    });
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
