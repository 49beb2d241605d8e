// The cron triggers' work, each run on a pool opened for that run only (wrangler.toml lists the crons).
import { getConfig } from "./env.ts";
import { logger } from "./logger.ts";
import { openConfigured, type Db } from "./db/client.ts";
import { expireGrants } from "./credits/expiry.ts";
import { sweepAbandonedJobs } from "./credits/sweep.ts";

/** The hourly credit expiry; every other trigger (each minute) settles overdue charged jobs. */
export const EXPIRY_CRON = "17 * * * *";

async function expire(db: Db, now: Date): Promise<void> {
  logger.info("credit expiry", { ...(await expireGrants({ db, now })) });
}

async function sweep(db: Db, now: Date): Promise<void> {
  const r = await sweepAbandonedJobs(db, {
    now,
    onError: (jobId, err) => logger.error("settlement sweep: job not settled", { job_id: jobId, error: err }),
  });
  if (r.due > 0) logger.info("settlement sweep", { ...r });
}

export async function runScheduled(env: Env, cron: string, now: Date): Promise<void> {
  const config = getConfig(env);
  // `HYPERDRIVE` is optional and not in the generated Env (README: Database connections).
  const handle = openConfigured((env as { HYPERDRIVE?: Hyperdrive }).HYPERDRIVE, config.databaseUrl, config.dbWsProxy);
  if (!handle) {
    logger.error("cron skipped: neither HYPERDRIVE nor DATABASE_URL is set", { cron });
    return;
  }
  try {
    await (cron === EXPIRY_CRON ? expire(handle.db, now) : sweep(handle.db, now));
  } finally {
    await handle.close();
  }
}
