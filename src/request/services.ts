// Builds the per-request services once, in one middleware, from the config parsed once per isolate.
import { createMiddleware } from "hono/factory";
import { idpAdmin } from "../auth/idp-admin.ts";
import { type DbHandle, openConfigured } from "../db/client.ts";
import { type Config, ConfigError, getConfig } from "../env.ts";
import { UnavailableError } from "../errors.ts";
import { type Logger, logger } from "../logger.ts";
import { marketingClient } from "../marketing/contacts.ts";
import { processorFromConfig } from "../billing/stripe-processor.ts";
import { packSource } from "../packs/visible.ts";
import { uploadLotsPack } from "../assess/upload-lots.ts";
import { chatModel } from "../chat/model.ts";
import { isWorkersAiBinding } from "../chat/workers-ai-model.ts";
import type { AppEnv, Services } from "./context.ts";
import { errors } from "../http/errors.ts";
import { rateLimiterClient } from "../http/rate-limiter.ts";

export interface ServicesHandle {
  services: Services;
  /** Closes what the services opened, once held work has settled. */
  close(): Promise<void>;
}

export function createServices(env: Env, config: Config, log: Logger): ServicesHandle {
  let db: DbHandle | undefined;
  // `HYPERDRIVE` is optional and not in the generated Env (README: Database connections).
  const hyperdrive = (env as { HYPERDRIVE?: Hyperdrive }).HYPERDRIVE;
  const openOwn = (): DbHandle => {
    const handle = openConfigured(hyperdrive, config.databaseUrl, config.dbWsProxy);
    if (!handle) throw new UnavailableError("database (neither HYPERDRIVE nor DATABASE_URL is set)");
    return handle;
  };
  const held: Promise<unknown>[] = [];
  const services: Services = {
    log,
    hold(work) {
      held.push(work);
    },
    db() {
      db ??= openOwn();
      return db.db;
    },
    openOwnDb: openOwn,
    payer: ({ orgId, userId }) => ({ db: services.db(), orgId, userId, openOwnDb: openOwn, log }),
    idp: idpAdmin(config.identityProvider),
    marketing: config.marketing ? marketingClient(config.marketing) : undefined,
    rateLimiter: rateLimiterClient(env.RATE_LIMITER),
    // Uploaded lots become v2 lots packs, their facts computed by assess (which packs may not import).
    packs: packSource(env, config.publicPackPrefix, log, config.packCacheBytes, uploadLotsPack),
    payments: processorFromConfig(config.payments),
    chatSessions: env.CHAT_SESSIONS,
    results: env.PACKS,
    assets: (env as { ASSETS?: Fetcher }).ASSETS,
    publishes: env.PUBLISHES,
    alertEmail: env.ALERT_EMAIL,
    // `AI` is not in the generated Env: the binding is optional (README: Chat model providers).
    chatModel: () => {
      const ai = (env as { AI?: unknown }).AI;
      return chatModel(config.llm, isWorkersAiBinding(ai) ? ai : undefined);
    },
  };
  return {
    services,
    async close() {
      if (!db && held.length === 0) return;
      await Promise.allSettled(held);
      await db?.close().catch(() => {});
    },
  };
}

export const services = createMiddleware<AppEnv>(async function services(c, next) {
  const log = logger.with({ request_id: c.var.requestId });
  let config: Config;
  try {
    config = getConfig(c.env);
  } catch (err) {
    if (err instanceof ConfigError) log.error(err.message);
    throw errors.internal();
  }
  c.set("config", config);
  const handle = createServices(c.env, config, log);
  c.set("services", handle.services);
  try {
    await next();
  } finally {
    // Streams may still use the pool: close it only once the response body has been produced.
    const close = handle.close();
    try {
      c.executionCtx.waitUntil(close);
    } catch {
      await close;
    }
  }
});
