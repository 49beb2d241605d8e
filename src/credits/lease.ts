// A running job's lease: its deadline pushed out, with its progress (units_done), in one statement per half timeout.
import { sql } from "drizzle-orm";
import type { Sql } from "../db/client.ts";
import type { Logger } from "../logger.ts";

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

/**
 * Holds a job while its work streams: renewed once half its timeout has passed since the last renewal, whatever went
 * out meanwhile, so a reader that pauses keeps what it pays for and a stream shorter than that costs no write at all.
 */
export function holdLease(db: Sql, { jobId, settleAfter, timeoutMs, log }: LeaseOptions): Lease {
  const started = Date.now();
  let until = settleAfter.getTime();
  // When the deadline was last set: the job's opening, then each renewal written.
  let renewedAt = until - timeoutMs;
  let delivered = 0;
  let written = 0;
  let lost = false;
  let inflight: Promise<void> | undefined;
  // Renewals are at least half a timeout apart, so a stream writes at most one statement per half timeout.
  const due = () => Date.now() - renewedAt >= timeoutMs / 2;
  const renew = (): Promise<void> => {
    inflight ??= (async () => {
      const units = delivered;
      const at = Date.now();
      const next = Math.max(until, Math.min(at + timeoutMs, started + MAX_HOLD_MS));
      // Past the longest hold with no new progress, the statement would change nothing.
      if (next === until && units === written) return;
      try {
        if (!(await recordProgress(db, { jobId, unitsDone: units, until: new Date(next) }))) lost = true;
        else [until, written, renewedAt] = [next, units, at];
      } catch (err) {
        log.warn("job lease not renewed", { job_id: jobId, error: err });
      }
    })().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
  // Checked four times a timeout: a renewal comes between half and three quarters of the timeout after the last.
  const timer = setInterval(
    () => {
      if (!lost && due()) void renew();
    },
    Math.max(1, Math.floor(timeoutMs / 4)),
  );
  return {
    note(units) {
      delivered = Math.max(delivered, units);
    },
    async holds() {
      // The timer keeps the deadline over a quarter timeout away; nearer means it failed, so try once more first.
      if (!lost && until - Date.now() <= timeoutMs / 4 && due()) await renew();
      return !lost && Date.now() < until;
    },
    stop() {
      lost = true;
      clearInterval(timer);
    },
  };
}
