// A running job's lease: its progress (units_done) and its deadline, renewed while the work streams, at a bounded rate.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** At most one write this often (and a write only when progress moved or the deadline is half spent). */
export const RENEW_EVERY_MS = 5_000;
/** A stream holds its job this long at most (a client that never reads nor leaves); then the sweep settles it. */
export const MAX_HOLD_MS = 15 * 60_000;

/**
 * Records progress and pushes the deadline out, in one statement, only while the job is still charged.
 * False when it was settled meanwhile (the sweep took it): the caller must stop delivering.
 */
export async function recordProgress(
  db: Sql,
  { jobId, unitsDone, until }: { jobId: string; unitsDone: number; until: Date },
): Promise<boolean> {
  const res = await db.execute<{ id: string }>(sql`
    update charged_jobs set units_done = greatest(units_done, least(units, ${Math.max(0, Math.floor(unitsDone))}::int)),
           settle_after = greatest(settle_after, ${until.toISOString()}::timestamptz)
    where id = ${jobId} and status = 'charged'
    returning id`);
  return res.rows.length > 0;
}

export interface Lease {
  /** The units delivered so far; written with the next renewal, so the sweep charges them if this isolate dies. */
  note(delivered: number): void;
  /** Whether the job is still this stream's to deliver; renews first when its deadline is near. */
  holds(): Promise<boolean>;
  stop(): void;
}

export interface LeaseOptions {
  jobId: string;
  /** The deadline the job was opened with. */
  settleAfter: Date;
  /** How far each renewal pushes the deadline (the action's job timeout). */
  timeoutMs: number;
  log: Logger;
}

/** Holds a job while its work streams: a timer renews it, so a reader that pauses keeps what it pays for. */
export function holdLease(db: Sql, { jobId, settleAfter, timeoutMs, log }: LeaseOptions): Lease {
  const every = Math.max(1, Math.min(RENEW_EVERY_MS, Math.floor(timeoutMs / 4)));
  const started = Date.now();
  let until = settleAfter.getTime();
  let delivered = 0;
  let written = 0;
  let lost = false;
  let inflight: Promise<void> | undefined;
  const renew = (): Promise<void> => {
    inflight ??= (async () => {
      const units = delivered;
      const next = Math.max(until, Math.min(Date.now() + timeoutMs, started + MAX_HOLD_MS));
      try {
        if (!(await recordProgress(db, { jobId, unitsDone: units, until: new Date(next) }))) lost = true;
        else [until, written] = [next, units];
      } catch (err) {
        log.warn("job lease not renewed", { job_id: jobId, error: err });
      } finally {
        inflight = undefined;
      }
    })();
    return inflight;
  };
  const timer = setInterval(() => {
    if (!lost && (delivered !== written || until - Date.now() <= timeoutMs / 2)) void renew();
  }, every);
  return {
    note(units) {
      delivered = Math.max(delivered, units);
    },
    async holds() {
      // The timer keeps the deadline over half a timeout away; nearer means it failed, so try once more first.
      if (!lost && until - Date.now() <= every) await renew();
      return !lost && Date.now() < until;
    },
    stop() {
      lost = true;
      clearInterval(timer);
    },
  };
}
