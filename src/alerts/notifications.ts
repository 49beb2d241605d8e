// Notifications: one row per alert and change (recorded by the publish consumer), read state per user.
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { alerts, notificationReads, notifications } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";

export const NOTIFICATIONS_PAGE = 50;

export interface Notification {
  id: string;
  alert_id: string;
  alert_type: string;
  change: unknown;
  read: boolean;
  created_at: string;
}

/** The organisation's notifications for this user, newest first; `unread` keeps those the user has not read. */
export async function listNotifications(
  db: Db,
  orgId: string,
  userId: string,
  opts: { unread?: boolean; before?: Date } = {},
): Promise<{ notifications: Notification[]; unread_count: number }> {
  const readBy = and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, userId));
  const rows = await db
    .select({ n: notifications, type: alerts.alertType, readAt: notificationReads.readAt })
    .from(notifications)
    .innerJoin(alerts, eq(alerts.id, notifications.alertId))
    .leftJoin(notificationReads, readBy)
    .where(
      and(
        eq(notifications.orgId, orgId),
        opts.unread ? isNull(notificationReads.readAt) : undefined,
        opts.before ? lt(notifications.createdAt, opts.before) : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE);
  const [unread] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .leftJoin(notificationReads, readBy)
    .where(and(eq(notifications.orgId, orgId), isNull(notificationReads.readAt)));
  return {
    notifications: rows.map((r) => ({
      id: r.n.id,
      alert_id: r.n.alertId,
      alert_type: r.type,
      change: r.n.change,
      read: r.readAt !== null,
      created_at: r.n.createdAt.toISOString(),
    })),
    unread_count: Number(unread?.n ?? 0),
  };
}

/** Marks one notification read for this user; reading it twice changes nothing. */
export async function markRead(db: Db, orgId: string, userId: string, id: string): Promise<void> {
  const [n] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.orgId, orgId), eq(notifications.id, id)));
  if (!n) throw new NotFoundError(`Notification not found: ${id}`);
  await db.insert(notificationReads).values({ notificationId: id, userId }).onConflictDoNothing();
}
