// Finds the parcel a CSV row points at, or says plainly why it cannot.
import type { BBox } from "../geo/bbox.ts";
import { bboxContains } from "../geo/bbox.ts";
import { type PackArea, pointArea, refuseDamaged } from "../packs/request-pages.ts";
import { chargedView, type LotAt, type PagedPack, type ReadBudget } from "../packs/paged/index.ts";
import { packStorage } from "../packs/private/store.ts";
import type { PackScope } from "../packs/scope.ts";
import { pagedPacks, wholePacks } from "../packs/open-pack.ts";
import type { Pack } from "../packs/types.ts";
import { parcelAt, parcelByLot, parcelFromFeature, type ParcelHit } from "../packs/spatial.ts";
import type { CsvSiteRow } from "./csv.ts";
import { batchAddressBudget, lotByAddress } from "./locate-address.ts";

export type Located = { ok: true; parcel: ParcelHit } | { ok: false; detail: string };
/** Where a row's lot was found, and the packs its facts are read from. */
export type RowSite = { located: Located; packs: readonly Pack[] };

const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6);

/** The pack pages a row needs read, or null for a row that cannot be located. */
export function rowArea(row: CsvSiteRow): PackArea | null {
  if (row.problem) return null;
  if (row.lotNumber !== undefined) return { lotId: row.lotNumber };
  return typeof row.lat === "number" && typeof row.lon === "number" ? pointArea(row.lon, row.lat) : null;
}

/** The points of the rows located by a point (not by lot id), in row order. */
export function pointsOf(rows: readonly CsvSiteRow[]): [number, number][] {
  const out: [number, number][] = [];
  for (const row of rows) {
    const area = rowArea(row);
    if (area && "box" in area) out.push([area.box[0], area.box[1]]);
  }
  return out;
}

export type Coverage = readonly { title: string; bbox: BBox; parcels: boolean }[];

const where = (lon: number, lat: number) => `(${fmt(lat)}, ${fmt(lon)})`;

// Why a point cannot be located before any pack is searched (outside every pack), or null.
function outsideCoverage(lon: number, lat: number, coverage: Coverage): string | null {
  // A loop, not some(): a closure per row is garbage the batch row pays for.
  for (let k = 0; k < coverage.length; k++)
    if (bboxContains((coverage[k] as Coverage[number]).bbox, lon, lat)) return null;
  const covered = [...new Set(coverage.filter((c) => c.parcels).map((c) => c.title))].join("; ");
  return `The point ${where(lon, lat)} is outside every data pack with parcels${covered ? ` (covered: ${covered})` : ""}.`;
}

const noParcel = (lon: number, lat: number) =>
  `No parcel at ${where(lon, lat)}: the point may fall on a road, park or water, or outside the cadastre.`;

export function locateRow(packs: readonly Pack[], row: CsvSiteRow, coverage: Coverage): Located {
  if (row.problem) return { ok: false, detail: row.problem };
  if (row.lotNumber !== undefined) {
    const hit = parcelByLot(packs, row.lotNumber);
    return hit
      ? { ok: true, parcel: hit }
      : { ok: false, detail: `Lot "${row.lotNumber}" matches no parcel in the data packs.` };
  }
  const lat = row.lat;
  const lon = row.lon;
  if (typeof lat !== "number" || typeof lon !== "number")
    return { ok: false, detail: "The row has no usable coordinates." };
  const outside = outsideCoverage(lon, lat, coverage);
  if (outside !== null) return { ok: false, detail: outside };
  const hit = parcelAt(packs, lon, lat);
  return hit ? { ok: true, parcel: hit } : { ok: false, detail: noParcel(lon, lat) };
}

// The row's site from the v2 lot found, or null when the lot has no record (then the overlays of every pack `at`
// gives assess it, as before).
function fromLot(pack: PagedPack, at: LotAt): RowSite | null {
  if (!at.lot) return null;
  const s = at.snapshot;
  const { page, index } = at.lot;
  const view = chargedView(pack, s, page);
  const parcel = parcelFromFeature(view, index);
  return parcel.record ? { located: { ok: true, parcel }, packs: [view] } : null;
}

const noLot = (scope: PackScope, lon: number, lat: number): RowSite => ({
  located: { ok: false, detail: noParcel(lon, lat) },
  packs: wholePacks(scope.visible),
});

/**
 * The lot under a point asked of each v2 pack directly (its page's view is built for that one lot, no other page's),
 * or null when the scope's own order must decide: a v1 pack has a lot there too, or the lot has no precomputed facts.
 * Warm (every page needed cached) it settles without a promise; else `cold` is the pack to read pages of from.
 */
function lotUnderWarm(scope: PackScope, lon: number, lat: number): { site: RowSite | null } | { cold: number } {
  // Where v1 and v2 lots overlap, which answers is the order `scope.at` gives, so that path decides.
  if (parcelAt(wholePacks(scope.visible), lon, lat)) return { site: null };
  // The v2 pages come in list order in `scope.at`: the first pack holding a lot answers.
  const paged = pagedPacks(scope.visible);
  for (let k = 0; k < paged.length; k++) {
    const pack = paged[k] as PagedPack;
    const at = pack.lotAtWarm(lon, lat);
    if (at === undefined) return { cold: k };
    if (at.lot) return { site: fromLot(pack, at) };
  }
  return { site: noLot(scope, lon, lat) };
}

async function lotUnderCold(scope: PackScope, lon: number, lat: number, from: number): Promise<RowSite | null> {
  const paged = pagedPacks(scope.visible);
  for (let k = from; k < paged.length; k++) {
    const pack = paged[k] as PagedPack;
    // lotAt answers from the cache without a read when it can.
    const at = await packStorage(pack.lotAt(lon, lat));
    refuseDamaged(at.refused);
    if (at.lot) return fromLot(pack, at);
  }
  return noLot(scope, lon, lat);
}

/**
 * Locates a row in the caller's packs: what the batch does per row (a point row reads only the lot it falls in; an
 * address row the pages of its suburb, from `addressBudget` (shared by the batch's rows), then its lot by id).
 */
export async function locateSite(
  scope: PackScope,
  row: CsvSiteRow,
  addressBudget: ReadBudget = batchAddressBudget(),
): Promise<RowSite> {
  if (!row.problem && row.address !== undefined) {
    const hit = await lotByAddress(scope, row.address, addressBudget);
    if (!hit.ok) return { located: hit, packs: [] };
    // Found by address, the row is a lot-number row from here: the same read and the same refusal.
    return locateSite(scope, { ...row, address: undefined, lotNumber: hit.lotId }, addressBudget);
  }
  const { lat, lon } = row;
  if (!row.problem && row.lotNumber === undefined && typeof lat === "number" && typeof lon === "number") {
    const outside = outsideCoverage(lon, lat, scope.coverage);
    if (outside !== null) return { located: { ok: false, detail: outside }, packs: wholePacks(scope.visible) };
    const warm = lotUnderWarm(scope, lon, lat);
    const site = "site" in warm ? warm.site : await lotUnderCold(scope, lon, lat, warm.cold);
    if (site) return site;
  }
  const area = rowArea(row);
  // Rows in one suburb share pages: the page cache serves the second and later ones.
  const packs = await scope.at(area ? [area] : []);
  return { located: locateRow(packs, row, scope.coverage), packs };
}
