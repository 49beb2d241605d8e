// Notifications as the list shows them: one entry per change, however many alerts heard of it (a lot under a saved
// site's alert and a suburb's alert is listed once, naming both).
import type { Notification } from "../../../src/routes/schemas/alerts.ts";

export type NotificationGroup = {
  /** The newest notification of the change: what the entry says. */
  first: Notification;
  /** Every notification of the change, one per alert. */
  members: Notification[];
  /** Read once every member is read. */
  read: boolean;
};

// A change recorded under two alerts has one key in its pack (it names the versions, the lot and the field, not the alert).
const keyOf = (n: Notification): string => {
  const c = (typeof n.change === "object" && n.change !== null ? n.change : {}) as { key?: unknown; pack_id?: unknown };
  return typeof c.key === "string" ? `${String(c.pack_id)}|${c.key}` : `id:${n.id}`;
};

/** The list grouped by change, in the order of each change's newest notification. */
export function groupByChange(list: readonly Notification[]): NotificationGroup[] {
  const byKey = new Map<string, NotificationGroup>();
  for (const n of list) {
    const k = keyOf(n);
    const g = byKey.get(k);
    if (g) {
      g.members.push(n);
      g.read &&= n.read;
    } else byKey.set(k, { first: n, members: [n], read: n.read });
  }
  return [...byKey.values()];
}
