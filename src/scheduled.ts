// The cron triggers' work, each run on a pool opened for that run only (wrangler.toml lists the crons).
import { getConfig } from "./env.ts";
import { logger } from "./logger.ts";
import { openDb, type Db } from "./db/client.ts";
import { expireGrants } from "./billing/expiry.ts";
import { sweepAbandonedJobs } from "./settlement/sweep.ts";

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
  if (!config.databaseUrl) {
    logger.error("cron skipped: DATABASE_URL is not set", { cron });
    return;
  }
  const handle = openDb(config.databaseUrl, config.dbWsProxy);
  try {
    await (cron === EXPIRY_CRON ? expire(handle.db, now) : sweep(handle.db, now));
  } finally {
    await handle.close();
  }
}
