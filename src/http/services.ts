// Builds per-request services once, in one middleware; feature code reads them from the context.
import { createMiddleware } from "hono/factory";
import { getConfig, ConfigError } from "../env.ts";
import { openDb, type DbHandle } from "../db/client.ts";
import { UnavailableError } from "../errors.ts";
import { logger } from "../logger.ts";
import { errors } from "./errors.ts";
import type { AppEnv } from "./context.ts";

export const services = createMiddleware<AppEnv>(async function services(c, next) {
  const log = logger.with({ request_id: c.get("requestId") });
  let config;
  try {
    config = getConfig(c.env);
  } catch (err) {
    if (err instanceof ConfigError) log.error(err.message);
    throw errors.internal();
  }
  c.set("config", config);
  let handle: DbHandle | undefined;
  const held: Promise<unknown>[] = [];
  c.set("services", {
    log,
    hold(work) {
      held.push(work);
    },
    db() {
      if (!config.databaseUrl) throw new UnavailableError("database (DATABASE_URL is not set)");
      handle ??= openDb(config.databaseUrl, config.dbWsProxy);
      return handle.db;
    },
  });
  try {
    await next();
  } finally {
    // Streams may still use the pool: close it only once the response body has been produced.
    if (handle || held.length > 0) {
      const close = Promise.allSettled(held)
        .then(() => handle?.close())
        .catch(() => {});
      try {
        c.executionCtx.waitUntil(close);
      } catch {
        await close;
      }
    }
  }
});
