// Stored results in the Batch panel (pure but for the tab's storage and URL): the batch this tab shows, links to open one.
import type { StoredBatch } from "../../../src/routes/schemas/stored-results.ts";
import type { SiteRow } from "../site-row.ts";

/** The batch's rows as the table keeps them, from the rows the server stored as delivered. */
export function rowsOf(batch: Pick<StoredBatch, "rows">): SiteRow[] {
  return batch.rows.map((r) =>
    r.event === "site_result" ? { kind: "result" as const, ...r.data } : { kind: "error" as const, ...r.data },
  );
}

// Per tab (sessionStorage): a reload or a trip to Account reopens it; another tab starts from the list.
const KEY = "geo-assess:batch";

export function rememberBatch(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(KEY, id);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, quota): the panel still works, it only forgets on reload.
  }
}

export function rememberedBatch(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const SHORT = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

export const shortDate = (iso: string): string => SHORT.format(new Date(iso));

/** Days left before a stored result is deleted, in words. */
export function keptFor(expiresAt: string, now = Date.now()): string {
  const days = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 86_400_000));
  return days === 1 ? "kept 1 more day" : `kept ${days} more days`;
}
