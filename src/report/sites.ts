// Turns the request's pairs (score object, geometry) into assessed sites, or unresolved ones saying why.
//
// Pairing rule: `scores[i]` describes `parcel_geojsons[i]`. When the arrays differ in length the report
// covers the longer one: a geometry without a score object is assessed on its own; a score object without
// a geometry is located from its own `parcel` (`geojson`, then `centroid`) or lot id, as batch
// `site_result` objects carry, and is unresolved when none of these finds a parcel.
import { logger } from "../logger.ts";
import type { AreaGeometry } from "../geo/types.ts";
import { areaM2 } from "../geo/geodesic-area.ts";
import { centroid } from "../geo/centroid.ts";
import { columnsFromGeometry } from "../geo/columns.ts";
import { featureBBox } from "../geo/bbox.ts";
import { type PackArea, pointArea } from "../packs/request-pages.ts";
import type { Pack } from "../packs/types.ts";
import { PARCELS, packContaining, parcelAt, parcelByLot, type ParcelHit } from "../packs/spatial.ts";
import { siteFacts } from "../assess/facts.ts";
import { scoreSite, type FeasibilityResult } from "../scoring/index.ts";
import { pricedSuburb, valueOfScored } from "../assess/site-value.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";
import type { SiteValue } from "../value/types.ts";
import { type AssumptionRow, assumptionRows } from "./value-rows.ts";
import type { ParcelGeometry } from "./geometry.ts";
import { readSupplied, type SuppliedSite } from "./labels.ts";
import type { ReportRequest } from "./schema.ts";
import { groupAreas, locateGroup } from "../assemble/locate-group.ts";
import { groupValue, type ScoredGroup, scoreGroupSite } from "../assemble/score-group.ts";

export interface SiteInput {
  index: number;
  score: Record<string, unknown> | undefined;
  geometry: ParcelGeometry | undefined;
}

/** Where the assessed polygon came from. */
export type PolygonSource = "cadastre_at_point" | "cadastre_by_lot" | "supplied_polygon" | "cadastre_group";

interface SiteBase {
  index: number;
  supplied: SuppliedSite;
  /** The geometry the site was located from, and whether it came from `parcel_geojsons` or the score object. */
  located: { geometry: ParcelGeometry | null; from: "parcel_geojsons" | "scores" | "lot_id" | null };
}

export interface ResolvedSite extends SiteBase {
  status: "resolved";
  source: PolygonSource;
  parcel: ParcelHit;
  lotId: string | null;
  address: string | null;
  result: FeasibilityResult;
  /** A group of adjoining lots scored as one site (`lotId` then lists them); its value sums what stands on each. */
  group?: ScoredGroup;
  /** What the site is worth on the paying organisation's assumptions (absent for unpaid example reports). */
  value?: SiteWorth;
}

/** A site's value and the assumptions it rested on, as its page prints them. */
export interface SiteWorth {
  value: SiteValue;
  assumptions: AssumptionRow[];
}

export interface UnresolvedSite extends SiteBase {
  status: "unresolved";
  detail: string;
}

export type ReportSite = ResolvedSite | UnresolvedSite;

/** The resolved site with its value on these assumptions, priced in the suburb holding the lot. */
export function withWorth(packs: readonly Pack[], site: ReportSite, a: AssumptionsDocument | undefined): ReportSite {
  if (site.status !== "resolved" || !a) return site;
  const value = site.group ? groupValue(packs, site.group, a) : valueOfScored(packs, site.parcel, site.result, a);
  const rows = assumptionRows(a, site.result.yieldBasis, pricedSuburb(packs, site.parcel));
  return { ...site, value: { value, assumptions: rows } };
}

/** The sites of a request, paired by index over the longer of the two arrays. */
export function pairSites(req: Pick<ReportRequest, "scores" | "parcel_geojsons">): SiteInput[] {
  const n = Math.max(req.scores.length, req.parcel_geojsons.length);
  return Array.from({ length: n }, (_, index) => ({
    index,
    score: req.scores[index],
    geometry: req.parcel_geojsons[index],
  }));
}

const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6);

function coveredBy(packs: readonly Pack[]): string {
  return [...new Set(packs.filter((p) => p.layers.has(PARCELS)).map((p) => p.meta.title))].join("; ");
}

function fromPolygon(packs: readonly Pack[], polygon: AreaGeometry): ParcelHit | null {
  const c = centroid(polygon);
  const parcelPacks = packs.filter((p) => p.layers.has(PARCELS));
  const pack = packContaining(parcelPacks, c[0], c[1]);
  if (!pack) return null;
  // The cadastre lot under the polygon's centre names it when the client did not.
  const lot = parcelAt(packs, c[0], c[1]);
  const area = areaM2(polygon);
  // The lot itself sent back (a batch result's geometry): its precomputed facts hold for the polygon.
  const same = lot?.record !== undefined && Math.abs(area - lot.areaM2) <= Math.max(1, 0.005 * lot.areaM2);
  return {
    packId: lot?.packId ?? pack.id,
    index: lot?.index ?? -1,
    lotId: lot?.lotId ?? null,
    areaM2: same && lot ? lot.areaM2 : area,
    polygon,
    bbox: featureBBox(columnsFromGeometry(polygon), 0),
    centroid: c,
    props: lot?.props ?? {},
    ...(same && lot?.record ? { record: lot.record } : {}),
  };
}

type Located = { ok: true; parcel: ParcelHit; source: PolygonSource } | { ok: false; detail: string };

function locate(packs: readonly Pack[], geometry: ParcelGeometry): Located {
  if (geometry.type === "Point") {
    const [lon, lat] = geometry.coordinates as [number, number];
    const where = `${fmt(lat)}, ${fmt(lon)} (latitude, longitude)`;
    if (
      !packContaining(
        packs.filter((p) => p.layers.has(PARCELS)),
        lon,
        lat,
      )
    ) {
      const covered = coveredBy(packs);
      return {
        ok: false,
        detail: `The point ${where} is outside every data pack with parcels${covered ? ` (covered: ${covered})` : ""}.`,
      };
    }
    const hit = parcelAt(packs, lon, lat);
    return hit
      ? { ok: true, parcel: hit, source: "cadastre_at_point" }
      : { ok: false, detail: `No parcel at ${where}: the point may fall on a road, park or water.` };
  }
  const hit = fromPolygon(packs, geometry);
  if (!hit) {
    const covered = coveredBy(packs);
    return {
      ok: false,
      detail: `The polygon lies outside every data pack with parcels${covered ? ` (covered: ${covered})` : ""}.`,
    };
  }
  return { ok: true, parcel: hit, source: "supplied_polygon" };
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** The pack pages a site needs read to be located: a group's lots by id, else its geometry's or its lot id's. */
export function siteAreas(input: SiteInput): PackArea[] {
  const supplied = readSupplied(input.score);
  if (supplied.lotIds) return groupAreas(supplied.lotIds);
  const geometry = input.geometry ?? supplied.geometry;
  if (geometry?.type === "Point") {
    const [lon, lat] = geometry.coordinates as [number, number];
    return [pointArea(lon, lat)];
  }
  if (geometry) {
    const [lon, lat] = centroid(geometry);
    return [pointArea(lon, lat)];
  }
  return supplied.lotId ? [{ lotId: supplied.lotId }] : [];
}

// A group named by its lot ids (its union outline, sent back too, would name only the lot under its centre).
function resolveGroup(packs: readonly Pack[], input: SiteInput, supplied: SuppliedSite, lotIds: string[]): ReportSite {
  const base = { index: input.index, supplied, located: { geometry: null, from: "lot_id" as const } };
  const found = locateGroup(packs, lotIds);
  if (!found.ok) return { ...base, status: "unresolved", detail: found.detail };
  const group = scoreGroupSite(packs, found.group);
  return {
    ...base,
    status: "resolved",
    source: "cadastre_group",
    parcel: group.site.parcel,
    lotId: found.group.lotIds.join(", "),
    address: str(group.site.parcel.props.address) ?? supplied.address,
    result: group.result,
    group,
  };
}

/** Locates one site, gathers its facts from the packs and scores it; never throws for odd input. */
export function resolveSite(packs: readonly Pack[], input: SiteInput): ReportSite {
  const supplied = readSupplied(input.score);
  if (supplied.lotIds) return resolveGroup(packs, input, supplied, supplied.lotIds);
  const geometry = input.geometry ?? supplied.geometry;
  const base = { index: input.index, supplied };
  let located: Located;
  let from: SiteBase["located"];
  if (geometry) {
    from = { geometry, from: input.geometry ? "parcel_geojsons" : "scores" };
    located = locate(packs, geometry);
  } else if (supplied.lotId) {
    from = { geometry: null, from: "lot_id" };
    const hit = parcelByLot(packs, supplied.lotId);
    located = hit
      ? { ok: true, parcel: hit, source: "cadastre_by_lot" }
      : { ok: false, detail: `Lot "${supplied.lotId}" matches no parcel in the data packs.` };
  } else {
    return {
      ...base,
      located: { geometry: null, from: null },
      status: "unresolved",
      detail:
        "No geometry for this site: parcel_geojsons has no entry at this position and the score object names no parcel, centroid or lot id.",
    };
  }
  if (!located.ok) return { ...base, located: from, status: "unresolved", detail: located.detail };
  const { parcel, source } = located;
  let result: FeasibilityResult;
  try {
    result = scoreSite(siteFacts(packs, parcel));
  } catch (err) {
    // Clipping can refuse a self-intersecting polygon: report the site, keep the rest of the report.
    logger.warn("report: site could not be assessed", { index: input.index, error: err });
    return {
      ...base,
      located: from,
      status: "unresolved",
      detail:
        "The polygon could not be assessed: it may cross itself. Send the cadastre parcel or its centroid instead.",
    };
  }
  return {
    ...base,
    located: from,
    status: "resolved",
    source,
    parcel,
    lotId: source === "supplied_polygon" ? (supplied.lotId ?? parcel.lotId) : parcel.lotId,
    address:
      source === "supplied_polygon"
        ? (supplied.address ?? str(parcel.props.address))
        : (str(parcel.props.address) ?? supplied.address),
    result,
  };
}
