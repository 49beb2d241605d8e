// The publish consumer's work (architecture section 12): compare two versions of a pack only in the places alerts
// watch, record one notification per alert and change (the unique key makes a redelivery insert nothing), then
// hand each e-mail alert its digest. Everything here may run twice for one publish and still do each thing once.
import type { Db } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { Pack } from "../packs/types.ts";
import { type Change, diffLots } from "./diff.ts";
import { type Watcher, placesFor, watchingAlerts } from "./places.ts";
import { type Publish, changesFor, notificationRows } from "./record.ts";
import { searchMatchChanges } from "./search-match.ts";
import type { AlertType } from "./types.ts";
import { type PackVersion, lotsAt } from "./versions.ts";

export type DigestArgs = {
  alert: { id: string; orgId: string; createdBy: string; type: AlertType; target: unknown };
  publish: { packId: string; from: string; to: string; key: string };
  changes: readonly Change[];
};
export type DigestOutcome = "sent" | "already" | "skipped";

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
};

export type PublishOutcome = {
  places: number;
  alerts: number;
  changes: number;
  recorded: number;
  emails: Record<DigestOutcome, number>;
};

// Rows per insert: four parameters a row stays far below Postgres's 65,535.
const INSERT_ROWS = 500;

/** The key one publish's digest is claimed by: the pack and both versions. */
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
  deps: { db: Db; log: Logger; deliver?: (args: DigestArgs) => Promise<DigestOutcome> },
  job: PublishJob,
): Promise<PublishOutcome> {
  const { db, log } = deps;
  const publish: Publish = { packId: job.packId, from: job.from.version, to: job.to.version };
  const emails: Record<DigestOutcome, number> = { sent: 0, already: 0, skipped: 0 };
  if (publish.from === publish.to) {
    log.warn("publish names the same version twice: nothing to compare", { pack_id: job.packId, version: publish.to });
    return { places: 0, alerts: 0, changes: 0, recorded: 0, emails };
  }
  const watching = await watchingAlerts(db, job.orgId);
  const groups = placesFor(watching, job.packId, [job.from.bbox, job.to.bbox], job.gazetteer);
  const rows: ReturnType<typeof notificationRows> = [];
  const heard: { alert: Watcher; changes: Change[] }[] = [];
  let changed = 0;
  for (const g of groups) {
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
    const found = searched.get(same) ?? searchMatchChanges(job, { id: a.id, search: q }, log);
    searched.set(same, found);
    const mine = await found;
    changed += mine.length;
    if (mine.length === 0) continue;
    rows.push(...notificationRows(watcher(a), mine, publish));
    heard.push({ alert: a, changes: mine });
  }
  const recorded = await insertAll(db, rows);
  // Recorded first, for every alert; then the e-mails, each claimed once by the deliverer.
  const failures: unknown[] = [];
  for (const { alert, changes } of heard) {
    if (!deps.deliver || !alert.channels.includes("email") || alert.emailStopped) continue;
    try {
      const outcome = await deps.deliver({
        alert: { id: alert.id, orgId: alert.orgId, createdBy: alert.createdBy, type: alert.type, target: alert.target },
        publish: { ...publish, key: publishKey(publish) },
        changes,
      });
      emails[outcome] += 1;
    } catch (err) {
      log.error("alert digest not sent: the publish will be retried", { alert_id: alert.id, error: err });
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new Error(`${failures.length} alert digest(s) not sent`, { cause: failures[0] });
  return { places: groups.length, alerts: heard.length, changes: changed, recorded, emails };
}
