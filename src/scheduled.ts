// The cron triggers' work, each run on a pool opened for that run only (wrangler.toml lists the crons).
import { getConfig, type Env } from "./env.ts";
import { openDb, type Db } from "./db/client.ts";
import { expireGrants } from "./billing/expiry.ts";
import { sweepAbandonedJobs } from "./settlement/sweep.ts";

/** The hourly credit expiry; every other trigger (each minute) settles overdue charged jobs. */
export const EXPIRY_CRON = "17 * * * *";

async function expire(db: Db, now: Date): Promise<void> {
  const r = await expireGrants({ db, now });
  console.log(`credit expiry: ${r.expired} grant(s) expired across ${r.orgs} organisation(s), ${r.deferred} deferred`);
}

async function sweep(db: Db, now: Date): Promise<void> {
  const r = await sweepAbandonedJobs(db, { now, onError: (jobId, err) => console.error(`settlement sweep: job ${jobId} not settled`, err) });
  if (r.due > 0) {
    console.log(`settlement sweep: ${r.settled} job(s) settled, ${r.refunded} credits refunded, ${r.skipped} already settled, ${r.failed} failed`);
  }
}

export async function runScheduled(env: Env, cron: string, now: Date): Promise<void> {
  const config = getConfig(env);
  if (!config.databaseUrl) {
    console.error(`cron ${cron} skipped: DATABASE_URL is not set`);
    return;
  }
  const handle = openDb(config.databaseUrl, config.dbWsProxy);
  try {
    await (cron === EXPIRY_CRON ? expire(handle.db, now) : sweep(handle.db, now));
  } finally {
    await handle.close();
  }
}
