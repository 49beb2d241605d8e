// The alerts a publish may concern, and the places they watch, one place per distinct target: many alerts on one
// suburb or one saved lot cost one comparison.
import { and, asc, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { alerts, savedSites } from "../db/schema.ts";
import { areaBBox, type BBox, bboxIntersects } from "../geo/bbox.ts";
import type { PolygonGeometry } from "../geo/types.ts";
import { geocode, normaliseName } from "../geocode/gazetteer.ts";
import type { Pack } from "../packs/types.ts";
import type { Channel } from "../routes/schemas/alerts.ts";
import type { AlertTarget } from "./alerts.ts";
import type { AlertType } from "./types.ts";
import type { WatchPlace } from "./watched.ts";

export type Watcher = {
  id: string;
  orgId: string;
  type: AlertType;
  target: AlertTarget;
  channels: Channel[];
  emailStopped: boolean;
  createdBy: string;
  saved: { lotId: string; packId: string; bbox: BBox } | null;
};

export type PlaceGroup = { key: string; place: WatchPlace; alerts: Watcher[] };

/**
 * One chunk of the alerts a publish of this pack may concern (a private pack's only for its organisation, saved
 * searches too): at most `limit`, by alert id after `after`, so a publish is processed a chunk per queue message.
 */
export async function watchingAlerts(
  db: Db,
  orgId: string | null,
  page: { after: string | null; limit: number },
): Promise<Watcher[]> {
  const rows = await db
    .select({ a: alerts, lotId: savedSites.lotId, packId: savedSites.packId, bbox: savedSites.bbox })
    .from(alerts)
    .leftJoin(savedSites, eq(savedSites.id, alerts.savedSiteId))
    .where(and(orgId ? eq(alerts.orgId, orgId) : undefined, page.after ? gt(alerts.id, page.after) : undefined))
    .orderBy(asc(alerts.id))
    .limit(page.limit);
  return rows.map(({ a, lotId, packId, bbox }) => ({
    id: a.id,
    orgId: a.orgId,
    type: a.alertType as AlertType,
    target: a.target as AlertTarget,
    channels: a.channels as Channel[],
    emailStopped: a.emailStoppedAt !== null,
    createdBy: a.createdBy,
    saved: lotId && packId && bbox ? { lotId, packId, bbox: bbox as BBox } : null,
  }));
}

function boxPolygon(b: BBox): PolygonGeometry {
  const ring = [
    [b[0], b[1]],
    [b[2], b[1]],
    [b[2], b[3]],
    [b[0], b[3]],
    [b[0], b[1]],
  ];
  return { type: "Polygon", coordinates: [ring] };
}

/**
 * A saved lot is watched as the box around it, grown by half its size each way: the lots that replace it after a
 * subdivision or a merger put their points there, and changes of the neighbours are dropped by the alert's filter.
 */
function lotPlace(b: BBox): { key: string; place: WatchPlace } {
  const dx = (b[2] - b[0]) / 2;
  const dy = (b[3] - b[1]) / 2;
  const box: BBox = [b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy];
  return { key: `box:${box.join(",")}`, place: { kind: "polygon", polygon: boxPolygon(box), bbox: box } };
}

/** The place an alert watches in this publish of `packId`, or null when it watches nothing there. */
function placeOf(a: Watcher, packId: string, gazetteer: readonly Pack[]): { key: string; place: WatchPlace } | null {
  if ("saved_site_id" in a.target) return a.saved && a.saved.packId === packId ? lotPlace(a.saved.bbox) : null;
  if ("area" in a.target && "suburb" in a.target.area) {
    const hit = geocode(gazetteer, a.target.area.suburb);
    if (!hit) return null;
    return { key: `suburb:${normaliseName(hit.name)}`, place: { kind: "suburb", name: hit.name, bbox: hit.bbox } };
  }
  if ("area" in a.target && "polygon" in a.target.area) {
    const polygon = a.target.area.polygon;
    return {
      key: `polygon:${JSON.stringify(polygon.coordinates)}`,
      place: { kind: "polygon", polygon, bbox: areaBBox(polygon) },
    };
  }
  return null;
}

/** The places of these alerts that meet either version of the pack, each with the alerts watching it. */
export function placesFor(
  list: readonly Watcher[],
  packId: string,
  boxes: readonly BBox[],
  gazetteer: readonly Pack[],
): PlaceGroup[] {
  const groups = new Map<string, PlaceGroup>();
  for (const a of list) {
    const at = placeOf(a, packId, gazetteer);
    if (!at || !boxes.some((b) => bboxIntersects(b, at.place.bbox))) continue;
    const g = groups.get(at.key);
    if (g) g.alerts.push(a);
    else groups.set(at.key, { ...at, alerts: [a] });
  }
  return [...groups.values()];
}
