// Records what an alert hears of a publish: one notification per alert and change, written with the unique
// (alert, change key) so a redelivered message inserts nothing twice. Answers only the rows new this time.
import { notifications } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
import { type Change, concernsLot } from "./diff.ts";
import type { AlertType } from "./types.ts";

export type WatchingAlert = { id: string; orgId: string; type: AlertType; savedLotId: string | null };
export type Publish = { packId: string; from: string; to: string };

/** The changes this alert watches: its type, and for a saved site only those concerning its lot. */
export function changesFor(alert: WatchingAlert, changes: readonly Change[]): Change[] {
  return changes.filter((c) => c.type === alert.type && (!alert.savedLotId || concernsLot(c, alert.savedLotId)));
}

/** The notification rows of one alert's changes (what recordChanges inserts; the consumer inserts many alerts' at once). */
export function notificationRows(alert: WatchingAlert, changes: readonly Change[], publish: Publish) {
  return changesFor(alert, changes).map((c) => ({
    orgId: alert.orgId,
    alertId: alert.id,
    changeKey: c.key,
    change: { ...c, pack_id: publish.packId, version_before: publish.from, version_after: publish.to },
  }));
}

export async function recordChanges(
  db: Pick<Db, "insert">,
  alert: WatchingAlert,
  changes: readonly Change[],
  publish: Publish,
): Promise<{ id: string; changeKey: string }[]> {
  const rows = notificationRows(alert, changes, publish);
  if (rows.length === 0) return [];
  return db
    .insert(notifications)
    .values(rows)
    .onConflictDoNothing({ target: [notifications.alertId, notifications.changeKey] })
    .returning({ id: notifications.id, changeKey: notifications.changeKey });
}
