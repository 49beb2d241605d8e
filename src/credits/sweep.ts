// The sweep: settles jobs still charged past their deadline (the isolate died or settlement kept failing).
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { settleJob } from "./jobs.ts";

export interface SweepReport {
  /** Jobs past their deadline when the sweep looked. */
  due: number;
  /** Settled by this sweep. */
  settled: number;
  /** Settled meanwhile by someone else (the request or a concurrent sweep), or its lease renewed meanwhile. */
  skipped: number;
  failed: number;
  /** Credits this sweep gave back. */
  refunded: number;
}

/** Settles every overdue job once, refunding the units it had not recorded as done. */
export async function sweepAbandonedJobs(
  db: Db,
  {
    now = new Date(),
    limit = 500,
    onError = () => {},
  }: { now?: Date; limit?: number; onError?: (jobId: string, err: unknown) => void } = {},
): Promise<SweepReport> {
  const due = await db.execute<{ id: string }>(sql`
    select id from charged_jobs where status = 'charged' and settle_after <= ${now.toISOString()}::timestamptz
    order by settle_after limit ${limit}`);
  const report: SweepReport = { due: due.rows.length, settled: 0, skipped: 0, failed: 0, refunded: 0 };
  for (const { id } of due.rows) {
    try {
      // Claimed only if still due: a stream that renewed its lease since the select above keeps its job.
      const s = await settleJob(db, { jobId: id, by: "sweep", dueBy: now });
      if (s.alreadySettled || s.stillRunning) report.skipped += 1;
      else {
        report.settled += 1;
        report.refunded = Math.round((report.refunded + s.refunded) * 10_000) / 10_000;
      }
    } catch (err) {
      report.failed += 1;
      onError(id, err);
    }
  }
  return report;
}
