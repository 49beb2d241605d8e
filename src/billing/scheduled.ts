// The cron trigger's work: sweep expired credit grants with a pool opened for this run only.
import { getConfig } from "../env.ts";
import { openDb } from "../db/client.ts";
import { logger } from "../logger.ts";
import { expireGrants, type ExpiryReport } from "./expiry.ts";

export async function runScheduledExpiry(env: Env, now: Date = new Date()): Promise<ExpiryReport | undefined> {
  const config = getConfig(env);
  if (!config.databaseUrl) {
    logger.error("credit expiry skipped: DATABASE_URL is not set");
    return undefined;
  }
  const handle = openDb(config.databaseUrl, config.dbWsProxy);
  try {
    const report = await expireGrants({ db: handle.db, now });
    logger.info("credit expiry", { ...report });
    return report;
  } finally {
    await handle.close();
  }
}
