// The cron trigger's work: sweep expired credit grants with a pool opened for this run only.
import { getConfig, type Env } from "../env.ts";
import { openDb } from "../db/client.ts";
import { expireGrants, type ExpiryReport } from "./expiry.ts";

/** The cron (wrangler.toml) that runs the expiry sweep; the other trigger settles overdue jobs. */
export const EXPIRY_CRON = "17 * * * *";

export async function runScheduledExpiry(env: Env, now: Date = new Date()): Promise<ExpiryReport | undefined> {
  const config = getConfig(env);
  if (!config.databaseUrl) {
    console.error("credit expiry skipped: DATABASE_URL is not set");
    return undefined;
  }
  const handle = openDb(config.databaseUrl, config.dbWsProxy);
  try {
    const report = await expireGrants({ db: handle.db, now });
    console.log(`credit expiry: ${report.expired} grant(s) expired across ${report.orgs} organisation(s), ${report.deferred} deferred`);
    return report;
  } finally {
    await handle.close();
  }
}
