// The cron trigger's settlement work: sweep overdue charged jobs with a pool opened for this run only.
import { getConfig, type Env } from "../env.ts";
import { openDb } from "../db/client.ts";
import { sweepAbandonedJobs, type SweepReport } from "./sweep.ts";

export async function runScheduledSweep(env: Env, now: Date = new Date()): Promise<SweepReport | undefined> {
  const config = getConfig(env);
  if (!config.databaseUrl) {
    console.error("settlement sweep skipped: DATABASE_URL is not set");
    return undefined;
  }
  const handle = openDb(config.databaseUrl, config.dbWsProxy);
  try {
    const report = await sweepAbandonedJobs(handle.db, {
      now,
      onError: (jobId, err) => console.error(`settlement sweep: job ${jobId} not settled`, err),
    });
    if (report.due > 0) {
      console.log(`settlement sweep: ${report.settled} job(s) settled, ${report.refunded} credits refunded, ${report.skipped} already settled, ${report.failed} failed`);
    }
    return report;
  } finally {
    await handle.close();
  }
}
