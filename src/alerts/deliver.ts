// Sends one alert's digest e-mail through the send_email binding, at most once per key: the alert_emails row is
// claimed (unique alert + key) before the send, the alert's held publishes are attached to it, it is marked sent
// after, and released when the send fails (its publishes held again) so the queue's retry sends it. Runs in workerd
// only ("cloudflare:email"); the message is composed in email.ts, and digests.ts decides when a digest is due.
import { EmailMessage } from "cloudflare:email";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { IdpAdmin } from "../auth/idp-admin.ts";
import type { Db } from "../db/client.ts";
import { alertDigestItems, alertEmails, alerts, savedSites } from "../db/schema.ts";
import type { Config } from "../env.ts";
import type { Logger } from "../logger.ts";
import { type DigestChange, alertPlace } from "./describe.ts";
import { DIGEST_MAX_LISTED, composeDigestEmail } from "./email.ts";
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

export type DigestOutcome = "sent" | "already" | "skipped";

/** Another delivery holds the claim and is sending now: the queue retries this one later. */
export class DigestInFlightError extends Error {}

/** Whether e-mail can go at all: the binding, a sender, links and the unsubscribe key. */
export const canMail = (d: Pick<DeliverDeps, "email" | "config">): boolean =>
  Boolean(d.email && d.config.from && d.config.appUrl && d.config.unsubscribeSecret);

/** The alert as its e-mail needs it; null when deleted, unsubscribed, or asking for in-app notifications only. */
export async function mailableAlert(db: Db, alertId: string) {
  const [row] = await db
    .select({
      stoppedAt: alerts.emailStoppedAt,
      channels: alerts.channels,
      type: alerts.alertType,
      target: alerts.target,
      createdBy: alerts.createdBy,
      lotId: savedSites.lotId,
    })
    .from(alerts)
    .leftJoin(savedSites, eq(savedSites.id, alerts.savedSiteId))
    .where(eq(alerts.id, alertId));
  const channels = Array.isArray(row?.channels) ? (row.channels as unknown[]) : [];
  return row && row.stoppedAt === null && channels.includes("email") ? row : null;
}

/** Claims the row (its id); "already" when it was sent; throws DigestInFlightError while a live delivery holds it. */
async function claim(db: Db, alertId: string, key: string): Promise<string | "already"> {
  const [mine] = await db
    .insert(alertEmails)
    .values({ alertId, publishKey: key, changes: 0 })
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
  throw new DigestInFlightError(`The digest of alert ${alertId} (${key}) is being sent by another delivery`);
}

/** Attaches the alert's held publishes to the claimed e-mail (with those a dead delivery of the same claim took). */
function attach(db: Db, alertId: string, claimed: string) {
  return db
    .update(alertDigestItems)
    .set({ emailId: claimed })
    .where(
      and(
        eq(alertDigestItems.alertId, alertId),
        or(isNull(alertDigestItems.emailId), eq(alertDigestItems.emailId, claimed)),
      ),
    )
    .returning();
}

/** The first changes of the held publishes in the order they came, each with its publish. */
function listedOf(items: readonly (typeof alertDigestItems.$inferSelect)[]): DigestChange[] {
  const out: DigestChange[] = [];
  for (const it of [...items].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const publish = { packId: it.packId, from: it.versionFrom, to: it.versionTo };
    for (const c of it.listed as DigestChange[]) {
      if (out.length >= DIGEST_MAX_LISTED) return out;
      out.push({ ...c, publish });
    }
  }
  return out;
}

/** Sends the alert's held publishes as one e-mail claimed by `key`: "already" when that key was sent or nothing is held. */
export async function deliverDigest(deps: DeliverDeps, alertId: string, key: string): Promise<DigestOutcome> {
  const { db, idp, email, config, log } = deps;
  const { from, appUrl, unsubscribeSecret } = config;
  if (!email || !from || !appUrl || !unsubscribeSecret) return "skipped";

  const row = await mailableAlert(db, alertId);
  if (!row) return "skipped";

  const user = await idp.getUser(row.createdBy);
  if (!user?.email || !isAddress(user.email)) {
    log.warn("alert e-mail skipped: the alert's creator has no usable e-mail address", { alert_id: alertId });
    return "skipped";
  }

  const claimed = await claim(db, alertId, key);
  if (claimed === "already") return "already";
  const release = () =>
    db
      .delete(alertEmails)
      .where(and(eq(alertEmails.id, claimed), isNull(alertEmails.sentAt)))
      .catch((err: unknown) => log.error("alert e-mail claim not released", { alert_id: alertId, error: err }));

  let items: Awaited<ReturnType<typeof attach>>;
  let total = 0;
  try {
    items = await attach(db, alertId, claimed);
    total = items.reduce((n, it) => n + it.changes, 0);
    if (items.length === 0) {
      await release();
      return "already";
    }
    const first = items.reduce((a, b) => (a.createdAt <= b.createdAt ? a : b));
    const token = await signUnsubscribeToken(unsubscribeSecret, alertId);
    const domain = from.slice(from.lastIndexOf("@") + 1);
    const type = row.type as AlertType;
    const message = composeDigestEmail({
      from,
      to: user.email,
      alert: { id: alertId, type, place: alertPlace(row.target, row.lotId) },
      publish: { packId: first.packId, from: first.versionFrom, to: first.versionTo },
      changes: listedOf(items),
      total,
      publishes: items.length,
      appUrl,
      unsubscribeUrl: `${appUrl}/alerts/unsubscribe?token=${encodeURIComponent(token)}`,
      date: new Date(),
      messageId: `${crypto.randomUUID()}@${domain}`,
      boundary: `=_alert_${crypto.randomUUID().replaceAll("-", "")}`,
    });
    await email.send(new EmailMessage(from, user.email, message.raw));
  } catch (err) {
    // Released (its publishes held again, the foreign key sets them back), so the queue's retry sends them.
    await release();
    throw err;
  }
  await db
    .update(alertEmails)
    .set({ sentAt: new Date(), changes: total, publishes: items.length })
    .where(eq(alertEmails.id, claimed));
  log.info("alert e-mail sent", { alert_id: alertId, key, publishes: items.length, changes: total });
  return "sent";
}
