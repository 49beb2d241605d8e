// The publish consumer's work (docs/design.md section 12): compare two versions of a pack only in the places alerts
// watch, record one notification per alert and change (the unique key makes a redelivery insert nothing), then
// hand each e-mail alert's changes to the mailer. One call is one chunk of the alerts (by id), so no publish holds
// one invocation for long. Everything here may run twice for one chunk and still do each thing once.
import type { Db } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import { nextTask } from "../lib/next-task.ts";
import type { Logger } from "../logger.ts";
import type { Pack } from "../packs/types.ts";
import { type Change, diffLots } from "./diff.ts";
import type { MailArgs, MailOutcome } from "./digests.ts";
import { type Watcher, placesFor, watchingAlerts } from "./places.ts";
import { type Publish, changesFor, notificationRows } from "./record.ts";
import { searchMatchChanges } from "./search-match.ts";
import { type PackVersion, lotsAt } from "./versions.ts";

/** Alerts compared per queue message: a chunk's searches and diffs fit one short invocation. */
export const ALERT_CHUNK = 20;

export type PublishJob = {
  packId: string;
  /** The organisation of a private pack: only its alerts hear of it. Null for a public pack. */
  orgId: string | null;
  from: PackVersion;
  to: PackVersion;
  /** Public v1 packs a v1 version's facts are cut against (other packs than this one). */
  context: readonly Pack[];
  /** Packs suburbs are looked up in. */
  gazetteer: readonly Pack[];
  /** The chunk: alerts with an id after this one (null for the first chunk). */
  after: string | null;
};

export type PublishOutcome = {
  /** Alerts read in this chunk. */
  watching: number;
  places: number;
  alerts: number;
  changes: number;
  recorded: number;
  emails: Record<MailOutcome, number>;
  /** The last alert id of a full chunk: the next chunk starts after it. Null when this was the last. */
  next: string | null;
};

// Rows per insert: four parameters a row stays far below Postgres's 65,535.
const INSERT_ROWS = 500;

/** The key one publish is held by for an alert's digest: the pack and both versions. */
export const publishKey = (p: Publish) => `${p.packId}@${p.from}->${p.to}`;

const watcher = (a: Watcher) => ({
  id: a.id,
  orgId: a.orgId,
  type: a.type,
  savedLotId: "saved_site_id" in a.target && a.saved ? a.saved.lotId : null,
});

async function insertAll(db: Db, rows: ReturnType<typeof notificationRows>): Promise<number> {
  let recorded = 0;
  for (let at = 0; at < rows.length; at += INSERT_ROWS) {
    const inserted = await db
      .insert(notifications)
      .values(rows.slice(at, at + INSERT_ROWS))
      .onConflictDoNothing({ target: [notifications.alertId, notifications.changeKey] })
      .returning({ id: notifications.id });
    recorded += inserted.length;
  }
  return recorded;
}

export async function comparePublish(
  deps: { db: Db; log: Logger; mail?: (args: MailArgs) => Promise<MailOutcome> },
  job: PublishJob,
): Promise<PublishOutcome> {
  const { db, log } = deps;
  const publish: Publish = { packId: job.packId, from: job.from.version, to: job.to.version };
  const emails: Record<MailOutcome, number> = { sent: 0, held: 0, already: 0, skipped: 0 };
  if (publish.from === publish.to) {
    log.warn("publish names the same version twice: nothing to compare", { pack_id: job.packId, version: publish.to });
    return { watching: 0, places: 0, alerts: 0, changes: 0, recorded: 0, emails, next: null };
  }
  const watching = await watchingAlerts(db, job.orgId, { after: job.after, limit: ALERT_CHUNK });
  const next = watching.length === ALERT_CHUNK ? (watching[watching.length - 1]?.id ?? null) : null;
  const groups = placesFor(watching, job.packId, [job.from.bbox, job.to.bbox], job.gazetteer);
  const rows: ReturnType<typeof notificationRows> = [];
  const heard: { alert: Watcher; changes: Change[] }[] = [];
  let changed = 0;
  for (const g of groups) {
    // Each place's comparison, and each search below, is one bounded step: other requests run between them.
    await nextTask();
    const [before, after] = await Promise.all([
      lotsAt(job.from, job.context, g.place),
      lotsAt(job.to, job.context, g.place),
    ]);
    const changes = diffLots(before, after, publish);
    changed += changes.length;
    if (changes.length === 0) continue;
    for (const a of g.alerts) {
      const w = watcher(a);
      const mine = changesFor(w, changes);
      if (mine.length === 0) continue;
      rows.push(...notificationRows(w, mine, publish));
      heard.push({ alert: a, changes: mine });
    }
  }
  // Saved searches: each distinct search runs once against both versions, reading only its area's pages.
  const searched = new Map<string, Promise<Change[]>>();
  for (const a of watching) {
    if (a.type !== "search_match" || !("search" in a.target)) continue;
    const q = a.target.search;
    const same = JSON.stringify([q.area, q.filters ?? null, q.sort ?? null]);
    let found = searched.get(same);
    if (!found) {
      // Pages the pack's cache holds are read without I/O: a search of them would not yield on its own.
      await nextTask();
      found = searchMatchChanges(job, { id: a.id, search: q }, log);
      searched.set(same, found);
    }
    const mine = await found;
    changed += mine.length;
    if (mine.length === 0) continue;
    rows.push(...notificationRows(watcher(a), mine, publish));
    heard.push({ alert: a, changes: mine });
  }
  const recorded = await insertAll(db, rows);
  // Recorded first, for every alert (in-app is never held back); then the e-mails, which the mailer coalesces.
  const failures: unknown[] = [];
  for (const { alert, changes } of heard) {
    if (!deps.mail || !alert.channels.includes("email") || alert.emailStopped) continue;
    try {
      emails[await deps.mail({ alertId: alert.id, publish: { ...publish, key: publishKey(publish) }, changes })] += 1;
    } catch (err) {
      log.error("alert e-mail not handed on: the chunk will be retried", { alert_id: alert.id, error: err });
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new Error(`${failures.length} alert e-mail(s) not handed on`, { cause: failures[0] });
  return {
    watching: watching.length,
    places: groups.length,
    alerts: heard.length,
    changes: changed,
    recorded,
    emails,
    next,
  };
}
