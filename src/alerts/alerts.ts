// Alerts (docs/design.md section 12): what an organisation watches (a saved site, a suburb, a polygon or a saved
// search) and how it hears of a change. Checked here; the publish consumer reads them.
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { alerts, savedSites } from "../db/schema.ts";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors.ts";
import { areaM2 } from "../geo/geodesic-area.ts";
import type { PolygonGeometry } from "../geo/types.ts";
import { geocode } from "../geocode/gazetteer.ts";
import type { Pack } from "../packs/types.ts";
import type { Channel } from "../routes/schemas/alerts.ts";
import { CHANNELS } from "../routes/schemas/limits.ts";
import type { SearchQuery } from "../search/query.ts";
import { checkSearchArea } from "./search-target.ts";
import { type AlertType, alertType } from "./types.ts";

export const MAX_ALERTS = 100;
export const MAX_ALERT_POLYGON_KM2 = 100;

export type AlertTarget =
  | { saved_site_id: string }
  | { area: { suburb: string } | { polygon: PolygonGeometry } }
  | { search: SearchQuery };

export interface Alert {
  id: string;
  alert_type: AlertType;
  target: AlertTarget;
  channels: Channel[];
  email_stopped: boolean;
  created_by: string;
  created_at: string;
}

type Row = typeof alerts.$inferSelect;

function toAlert(r: Row): Alert {
  return {
    id: r.id,
    alert_type: r.alertType as AlertType,
    target: r.target as AlertTarget,
    channels: r.channels as Channel[],
    email_stopped: r.emailStoppedAt !== null,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  };
}

const refuse = (detail: string, loc: (string | number)[]) =>
  new UnprocessableError(detail, ["body", ...loc], "value_error");

/** A search target only for search_match, and search_match only with one: each watches a different thing. */
function checkPairing(type: AlertType, target: AlertTarget): void {
  const search = "search" in target;
  if (type === "search_match" && !search) {
    throw refuse("A search_match alert watches a saved search: give target.search (a POST /sites/search body)", [
      "target",
    ]);
  }
  if (type !== "search_match" && search) {
    throw refuse(`A ${type} alert watches a saved site or an area, not a search: use search_match for searches`, [
      "target",
    ]);
  }
}

/** The target as stored: a saved site of this organisation, a suburb the packs know (its own spelling), a small area. */
async function checkedTarget(db: Db, orgId: string, packs: readonly Pack[], target: AlertTarget) {
  if ("search" in target) {
    checkSearchArea(packs, target.search);
    return { target, savedSiteId: null };
  }
  if ("saved_site_id" in target) {
    const [site] = await db
      .select({ id: savedSites.id })
      .from(savedSites)
      .where(and(eq(savedSites.orgId, orgId), eq(savedSites.id, target.saved_site_id)));
    if (!site) throw new NotFoundError(`Saved site not found: ${target.saved_site_id}`);
    return { target, savedSiteId: site.id };
  }
  if ("area" in target && "suburb" in target.area) {
    const hit = geocode(packs, target.area.suburb);
    if (!hit) throw new NotFoundError(`Suburb not found: ${target.area.suburb}`);
    return { target: { area: { suburb: hit.name } }, savedSiteId: null };
  }
  if ("area" in target && "polygon" in target.area) {
    const km2 = areaM2(target.area.polygon) / 1e6;
    if (km2 > MAX_ALERT_POLYGON_KM2) {
      throw refuse(
        `An alert's polygon may cover at most ${MAX_ALERT_POLYGON_KM2} km² (this one covers ${km2.toFixed(1)} km²)`,
        ["target", "area", "polygon"],
      );
    }
  }
  return { target, savedSiteId: null };
}

export async function createAlert(args: {
  db: Db;
  orgId: string;
  userId: string;
  packs: readonly Pack[];
  type: string;
  target: AlertTarget;
  channels: readonly Channel[];
}): Promise<Alert> {
  const { db, orgId, userId } = args;
  const type = alertType(args.type);
  checkPairing(type, args.target);
  const { target, savedSiteId } = await checkedTarget(db, orgId, args.packs, args.target);
  const channels = CHANNELS.filter((c) => args.channels.includes(c));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`alerts:${orgId}`}))`);
    const [n] = await tx.select({ n: count() }).from(alerts).where(eq(alerts.orgId, orgId));
    if ((n?.n ?? 0) >= MAX_ALERTS) {
      throw new ConflictError(
        `This organisation already has ${MAX_ALERTS} alerts (the most allowed): delete one first`,
      );
    }
    const [row] = await tx
      .insert(alerts)
      .values({ orgId, alertType: type, target, savedSiteId, channels, createdBy: userId })
      .returning();
    if (!row) throw new Error("alert insert returned no row");
    return toAlert(row);
  });
}

/** The organisation's alerts, newest first. */
export async function listAlerts(db: Db, orgId: string): Promise<Alert[]> {
  const rows = await db
    .select()
    .from(alerts)
    .where(eq(alerts.orgId, orgId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
  return rows.map(toAlert);
}

export async function deleteAlert(db: Db, orgId: string, id: string): Promise<void> {
  const gone = await db
    .delete(alerts)
    .where(and(eq(alerts.orgId, orgId), eq(alerts.id, id)))
    .returning({ id: alerts.id });
  if (gone.length === 0) throw new NotFoundError(`Alert not found: ${id}`);
}
