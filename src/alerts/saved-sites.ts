// Saved sites (docs/design.md section 12): an organisation's watched lots, found by lot id or point like GET /parcels.
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { savedSites } from "../db/schema.ts";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors.ts";
import { columnsFromGeometries } from "../geo/columns.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import type { BBox } from "../geo/bbox.ts";
import type { ParcelHit } from "../packs/spatial.ts";

export const MAX_SAVED_SITES = 1_000;

export interface SavedSite {
  id: string;
  lot_id: string;
  pack_id: string;
  lng: number;
  lat: number;
  bbox: BBox;
  note: string | null;
  created_by: string;
  created_at: string;
}

type Row = typeof savedSites.$inferSelect;

export function toSavedSite(r: Row): SavedSite {
  return {
    id: r.id,
    lot_id: r.lotId,
    pack_id: r.packId,
    lng: r.lng,
    lat: r.lat,
    bbox: r.bbox as BBox,
    note: r.note,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  };
}

/** Where the site is drawn and flown to: the point asked for, else a point on the lot. */
function pointOf(hit: ParcelHit, asked: { lng: number; lat: number } | null): [number, number] {
  if (asked) return [asked.lng, asked.lat];
  return featureLabelPoint(columnsFromGeometries([hit.polygon]), 0);
}

/**
 * Saves the located lot for the organisation; a lot saved already is answered as it is (created false), so a
 * second press of `Save site` changes nothing. The limit is counted under the organisation's lock.
 */
export async function saveSite(args: {
  db: Db;
  orgId: string;
  userId: string;
  hit: ParcelHit;
  point: { lng: number; lat: number } | null;
  note: string | null;
}): Promise<{ site: SavedSite; created: boolean }> {
  const { db, orgId, userId, hit } = args;
  if (!hit.lotId) {
    throw new UnprocessableError("This lot has no lot id in its pack, so it cannot be saved", ["body"], "no_lot_id");
  }
  const lotId = hit.lotId;
  const [lng, lat] = pointOf(hit, args.point);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved-sites:${orgId}`}))`);
    const [have] = await tx
      .select()
      .from(savedSites)
      .where(and(eq(savedSites.orgId, orgId), eq(savedSites.lotId, lotId)));
    if (have) return { site: toSavedSite(have), created: false };
    const [n] = await tx.select({ n: count() }).from(savedSites).where(eq(savedSites.orgId, orgId));
    if ((n?.n ?? 0) >= MAX_SAVED_SITES) {
      throw new ConflictError(
        `This organisation already has ${MAX_SAVED_SITES.toLocaleString("en-AU")} saved sites (the most allowed): remove one first`,
      );
    }
    const [row] = await tx
      .insert(savedSites)
      .values({ orgId, lotId, packId: hit.packId, lng, lat, bbox: hit.bbox, note: args.note, createdBy: userId })
      .returning();
    if (!row) throw new Error("saved site insert returned no row");
    return { site: toSavedSite(row), created: true };
  });
}

/** The organisation's saved sites, newest first. */
export async function listSavedSites(db: Db, orgId: string): Promise<SavedSite[]> {
  const rows = await db
    .select()
    .from(savedSites)
    .where(eq(savedSites.orgId, orgId))
    .orderBy(desc(savedSites.createdAt), desc(savedSites.id));
  return rows.map(toSavedSite);
}

const notFound = (id: string) => new NotFoundError(`Saved site not found: ${id}`);

/** Removes the site and, by the foreign key, the alerts on it. */
export async function deleteSavedSite(db: Db, orgId: string, id: string): Promise<void> {
  const gone = await db
    .delete(savedSites)
    .where(and(eq(savedSites.orgId, orgId), eq(savedSites.id, id)))
    .returning({ id: savedSites.id });
  if (gone.length === 0) throw notFound(id);
}
