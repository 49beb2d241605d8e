// E-mails coalesce per alert over the digest window (docs/design.md section 12): a publish's changes are held (one
// row per alert and publish, unique), and mailed at once when the alert's last e-mail is older than the window;
// otherwise a delayed queue message flushes every held publish in one digest when the window ends.
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { alertDigestItems, alertEmails } from "../db/schema.ts";
import { DIGEST_MAX_LISTED } from "./email.ts";
import type { Change } from "./diff.ts";
import {
  type DeliverDeps,
  type DigestOutcome,
  STALE_CLAIM_MS,
  canMail,
  deliverDigest,
  mailableAlert,
} from "./deliver.ts";

export const DIGEST_MESSAGE = "alert_digest";
/** Queues delay a message by at most 12 hours. */
export const MAX_DELAY_S = 43_200;

export type DigestMessage = { type: typeof DIGEST_MESSAGE; alert_id: string };
export const digestMessage = (alertId: string): DigestMessage => ({ type: DIGEST_MESSAGE, alert_id: alertId });
export const DigestMessageSchema = z.object({ type: z.literal(DIGEST_MESSAGE), alert_id: z.uuid() });

export type MailOutcome = DigestOutcome | "held";
export type MailArgs = {
  alertId: string;
  publish: { packId: string; from: string; to: string; key: string };
  changes: readonly Change[];
};
export type DigestDeps = DeliverDeps & {
  /** Queues the alert's flush after this many seconds (a DIGEST_MESSAGE with delaySeconds). */
  schedule: (alertId: string, delaySeconds: number) => Promise<void>;
};

/** Holds one publish's changes for an e-mail alert, then mails them now or when the window ends. */
export async function mailChanges(deps: DigestDeps, args: MailArgs): Promise<MailOutcome> {
  if (!canMail(deps) || args.changes.length === 0 || !(await mailableAlert(deps.db, args.alertId))) return "skipped";
  const { publish } = args;
  await deps.db
    .insert(alertDigestItems)
    .values({
      alertId: args.alertId,
      publishKey: publish.key,
      packId: publish.packId,
      versionFrom: publish.from,
      versionTo: publish.to,
      changes: args.changes.length,
      listed: args.changes.slice(0, DIGEST_MAX_LISTED),
    })
    .onConflictDoNothing({ target: [alertDigestItems.alertId, alertDigestItems.publishKey] });
  return flushDigest(deps, args.alertId);
}

/** Mails the alert's held publishes if its window allows, else schedules the flush: safe to run any number of times. */
export async function flushDigest(deps: DigestDeps, alertId: string): Promise<MailOutcome> {
  const { db, config } = deps;
  // Seconds left are the database's own clock, so isolates' clocks never disagree about a window.
  const [last] = await db
    .select({
      id: alertEmails.id,
      key: alertEmails.publishKey,
      sentAt: alertEmails.sentAt,
      windowLeft: sql<number>`extract(epoch from (${alertEmails.createdAt} + make_interval(secs => ${config.digestWindowS}) - now()))::float8`,
      staleLeft: sql<number>`extract(epoch from (${alertEmails.createdAt} + make_interval(secs => ${STALE_CLAIM_MS / 1000}) - now()))::float8`,
    })
    .from(alertEmails)
    .where(eq(alertEmails.alertId, alertId))
    .orderBy(desc(alertEmails.createdAt))
    .limit(1);
  // A claim never marked sent, and stale: its delivery died mid-send; taken over with what it held.
  if (last && !last.sentAt && last.staleLeft <= 0) return deliverDigest(deps, alertId, last.key);
  const [held] = await db
    .select({ n: count() })
    .from(alertDigestItems)
    .where(and(eq(alertDigestItems.alertId, alertId), isNull(alertDigestItems.emailId)));
  if (!held?.n) return "already";
  // An e-mail in flight counts as the window's; if it dies, the flush waits until its claim is stale.
  const wait = !last ? 0 : last.sentAt ? last.windowLeft : Math.max(last.windowLeft, last.staleLeft);
  if (wait > 0) {
    await deps.schedule(alertId, Math.min(MAX_DELAY_S, Math.ceil(wait)));
    return "held";
  }
  return deliverDigest(deps, alertId, last ? `after:${last.id}` : "first");
}
