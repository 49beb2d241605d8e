// What the e-mail and unsubscribe suites share: an alert of a real organisation (its creator known to the identity
// provider), the mailer's dependencies over the real ALERT_EMAIL binding, and a record of what that binding took and
// which digest flushes were scheduled.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { idpAdmin } from "../../../src/auth/idp-admin.ts";
import type { Change } from "../../../src/alerts/diff.ts";
import type { DigestDeps, MailArgs } from "../../../src/alerts/digests.ts";
import type { Db } from "../../../src/db/client.ts";
import { alertEmails, alerts } from "../../../src/db/schema.ts";
import { getConfig } from "../../../src/env.ts";
import { logger } from "../../../src/logger.ts";
import type { TestOrg } from "../helpers/billing.ts";

export const config = () => getConfig(env);

/** An alert row as POST /alerts stores it, created by the organisation's member. */
export async function insertAlert(
  db: Db,
  org: TestOrg,
  { channels = ["in_app", "email"], createdBy = org.users.member.userId } = {},
): Promise<typeof alerts.$inferSelect> {
  const [row] = await db
    .insert(alerts)
    .values({
      orgId: org.orgId,
      alertType: "zoning_change",
      target: { area: { suburb: "Epping" } },
      channels,
      createdBy,
    })
    .returning();
  if (!row) throw new Error("no alert row");
  return row;
}

/** The raw messages the binding accepted, read off miniflare's EmailMessage (it keeps the bytes under this key). */
export type Sent = { from: string; to: string; raw: string };

/** The real ALERT_EMAIL binding, recording each message it accepted. */
export function recordingBinding(sent: Sent[]): SendEmail {
  return {
    async send(message: EmailMessage) {
      const result = await env.ALERT_EMAIL.send(message);
      const raw = (message as unknown as Record<string, unknown>)["EmailMessage::raw"];
      sent.push({ from: message.from, to: message.to, raw: typeof raw === "string" ? raw : "" });
      return result;
    },
  } as SendEmail;
}

export type Scheduled = { alertId: string; delaySeconds: number };

export function deps(
  db: Db,
  email: SendEmail | undefined,
  alertsConfig = config().alerts,
  scheduled: Scheduled[] = [],
): DigestDeps {
  return {
    db,
    idp: idpAdmin(config().identityProvider),
    email,
    config: alertsConfig,
    log: logger,
    schedule: async (alertId, delaySeconds) => {
      scheduled.push({ alertId, delaySeconds });
    },
  };
}

export function zoningChanges(n: number): Change[] {
  return Array.from({ length: n }, (_, i) => ({
    type: "zoning_change" as const,
    lot_id: `${i + 1}//DP${9000 + i}`,
    field: "zone" as const,
    old: "R2",
    new: "R4",
    point: [151.08 + i / 1000, -33.77] as [number, number],
    key: `v1->v2:zoning_change:${i + 1}//DP${9000 + i}:zone`,
  }));
}

export function argsFor(row: typeof alerts.$inferSelect, changes: Change[], key = crypto.randomUUID()): MailArgs {
  return { alertId: row.id, publish: { packId: "demo-sydney", from: "v1", to: "v2", key }, changes };
}

/** Moves the alert's e-mails back in time, as if `seconds` had passed since they were claimed. */
export const ageEmails = (db: Db, alertId: string, seconds: number) =>
  db
    .update(alertEmails)
    .set({ createdAt: sql`${alertEmails.createdAt} - make_interval(secs => ${seconds})` })
    .where(eq(alertEmails.alertId, alertId));

export const emailRows = (db: Db, alertId: string) =>
  db.select().from(alertEmails).where(eq(alertEmails.alertId, alertId));

/** The List-Unsubscribe link of a sent message. */
export function unsubscribeLink(raw: string): URL {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]/g, " ");
  const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(head)?.[1];
  if (!link) throw new Error("the message has no List-Unsubscribe link");
  return new URL(link);
}

/** The same link as path and query on the app under test. */
export function unsubscribePath(raw: string): string {
  const url = unsubscribeLink(raw);
  return `${url.pathname}${url.search}`;
}
