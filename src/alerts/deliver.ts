// Sends one alert's digest for one publish through the send_email binding, at most once: the alert_emails row is
// claimed (unique alert + publish key) before the send, marked sent after it, and released when the send fails so
// the queue's retry sends it. Runs in workerd only ("cloudflare:email"); the message itself is composed in email.ts.
import { EmailMessage } from "cloudflare:email";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { IdpAdmin } from "../auth/idp-admin.ts";
import type { Db } from "../db/client.ts";
import { alertEmails, alerts, savedSites } from "../db/schema.ts";
import type { Config } from "../env.ts";
import type { Logger } from "../logger.ts";
import { alertPlace } from "./describe.ts";
import type { Change } from "./diff.ts";
import { composeDigestEmail } from "./email.ts";
import { isAddress } from "./mime.ts";
import type { AlertType } from "./types.ts";
import { signUnsubscribeToken } from "./unsubscribe.ts";

/** A claim not marked sent after this long belongs to a delivery that died mid-send: the next one takes it over. */
export const STALE_CLAIM_MS = 10 * 60 * 1000;

export type DeliverDeps = {
  db: Db;
  idp: IdpAdmin;
  email: SendEmail | undefined;
  config: Config["alerts"];
  log: Logger;
};

export type DeliverArgs = {
  alert: { id: string; orgId: string; createdBy: string; type: AlertType; target: unknown };
  publish: { packId: string; from: string; to: string; key: string };
  changes: readonly Change[];
};

/** Another delivery of the same publish holds the claim and is sending now: the queue retries this one later. */
export class DigestInFlightError extends Error {}

/** Claims the row (its id); "already" when it was sent; throws DigestInFlightError while a live delivery holds it. */
async function claim(db: Db, alertId: string, key: string, changes: number): Promise<string | "already"> {
  const [mine] = await db
    .insert(alertEmails)
    .values({ alertId, publishKey: key, changes })
    .onConflictDoNothing({ target: [alertEmails.alertId, alertEmails.publishKey] })
    .returning({ id: alertEmails.id });
  if (mine) return mine.id;
  const [held] = await db
    .select({ id: alertEmails.id, sentAt: alertEmails.sentAt })
    .from(alertEmails)
    .where(and(eq(alertEmails.alertId, alertId), eq(alertEmails.publishKey, key)));
  if (!held || held.sentAt) return "already";
  // Taken over in one statement, so two late deliveries never both win.
  const [taken] = await db
    .update(alertEmails)
    .set({ createdAt: sql`now()` })
    .where(
      and(
        eq(alertEmails.id, held.id),
        isNull(alertEmails.sentAt),
        lt(alertEmails.createdAt, sql`now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`),
      ),
    )
    .returning({ id: alertEmails.id });
  if (taken) return taken.id;
  throw new DigestInFlightError(`The digest of alert ${alertId} for ${key} is being sent by another delivery`);
}

export async function deliverDigest(deps: DeliverDeps, args: DeliverArgs): Promise<"sent" | "already" | "skipped"> {
  const { db, idp, email, config, log } = deps;
  const { alert, publish, changes } = args;
  const { from, appUrl, unsubscribeSecret } = config;
  if (!email || !from || !appUrl || !unsubscribeSecret || changes.length === 0) return "skipped";

  const [row] = await db
    .select({ stoppedAt: alerts.emailStoppedAt, channels: alerts.channels, lotId: savedSites.lotId })
    .from(alerts)
    .leftJoin(savedSites, eq(savedSites.id, alerts.savedSiteId))
    .where(eq(alerts.id, alert.id));
  // Deleted meanwhile, unsubscribed, or an alert that asked for in-app notifications only.
  const channels = Array.isArray(row?.channels) ? (row.channels as unknown[]) : [];
  if (!row || row.stoppedAt !== null || !channels.includes("email")) return "skipped";

  const user = await idp.getUser(alert.createdBy);
  if (!user?.email || !isAddress(user.email)) {
    log.warn("alert e-mail skipped: the alert's creator has no usable e-mail address", { alert_id: alert.id });
    return "skipped";
  }

  const claimed = await claim(db, alert.id, publish.key, changes.length);
  if (claimed === "already") return "already";

  try {
    const token = await signUnsubscribeToken(unsubscribeSecret, alert.id);
    const domain = from.slice(from.lastIndexOf("@") + 1);
    const message = composeDigestEmail({
      from,
      to: user.email,
      alert: { id: alert.id, type: alert.type, place: alertPlace(alert.target, row.lotId) },
      publish,
      changes,
      appUrl,
      unsubscribeUrl: `${appUrl}/alerts/unsubscribe?token=${encodeURIComponent(token)}`,
      date: new Date(),
      messageId: `${crypto.randomUUID()}@${domain}`,
      boundary: `=_alert_${crypto.randomUUID().replaceAll("-", "")}`,
    });
    await email.send(new EmailMessage(from, user.email, message.raw));
  } catch (err) {
    // Released, so the queue's retry claims and sends it; if even that fails, the claim goes stale and is taken over.
    await db
      .delete(alertEmails)
      .where(and(eq(alertEmails.id, claimed), isNull(alertEmails.sentAt)))
      .catch((releaseErr: unknown) =>
        log.error("alert e-mail claim not released", { alert_id: alert.id, error: releaseErr }),
      );
    throw err;
  }
  await db.update(alertEmails).set({ sentAt: new Date() }).where(eq(alertEmails.id, claimed));
  log.info("alert e-mail sent", { alert_id: alert.id, publish_key: publish.key, changes: changes.length });
  return "sent";
}
