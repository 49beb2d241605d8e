// The cron triggers' work, each run on a pool opened for that run only (wrangler.toml lists the crons).
import { getConfig } from "./env.ts";
import { logger } from "./logger.ts";
import { openConfigured, type Db } from "./db/client.ts";
import { expireGrants } from "./credits/expiry.ts";
import { sweepAbandonedJobs } from "./credits/sweep.ts";
import { expireStoredBatches } from "./batch/stored-batches.ts";
import { expireStoredReports } from "./report/stored-reports.ts";

/** The hourly expiry (credits, and stored results past 30 days); every other trigger (each minute) settles overdue jobs. */
export const EXPIRY_CRON = "17 * * * *";

async function expireResults(db: Db, bucket: R2Bucket, now: Date): Promise<{ batches: number; reports: number }> {
  return { batches: await expireStoredBatches(db, now), reports: await expireStoredReports(db, bucket, now) };
}

async function expire(db: Db, bucket: R2Bucket, now: Date): Promise<void> {
  // One failing does not hold the other back: each is retried the next hour.
  const [credits, results] = await Promise.allSettled([expireGrants({ db, now }), expireResults(db, bucket, now)]);
  if (credits.status === "fulfilled") logger.info("credit expiry", { ...credits.value });
  else logger.error("credit expiry failed", { error: credits.reason });
  if (results.status === "fulfilled") logger.info("stored results expiry", results.value);
  else logger.error("stored results expiry failed", { error: results.reason });
  if (credits.status === "rejected") throw credits.reason;
  if (results.status === "rejected") throw results.reason;
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
    await (cron === EXPIRY_CRON ? expire(handle.db, env.PACKS, now) : sweep(handle.db, now));
  } finally {
    await handle.close();
  }
}
