// The e-mail link's `?notifications=<alert id>` (src/alerts/describe.ts): whether the page should open the list, and
// the address without it (pure: the caller reads location and writes history).

export type NotificationsLink = { open: boolean; alertId: string | null; rest: string };

/** Reads `search` ("?a=1&notifications=x"); `rest` is the same query without `notifications` ("" when none left). */
export function notificationsLinkOf(search: string): NotificationsLink {
  const q = new URLSearchParams(search);
  if (!q.has("notifications")) return { open: false, alertId: null, rest: search };
  const alertId = q.get("notifications")?.trim() || null;
  q.delete("notifications");
  const left = q.toString();
  return { open: true, alertId, rest: left ? `?${left}` : "" };
}
