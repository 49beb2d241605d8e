// search_match alerts (docs/design.md section 12): a saved site search run against both versions of a published pack;
// the lots it matches now and did not before are the alert's changes, the first SEARCH_MATCH_CAP in the search's
// order one by one and the rest counted in one change. Keys name the pack, lot and new version: once under redelivery.
import { NotFoundError, UnprocessableError } from "../errors.ts";
import { type BBox, bboxIntersects } from "../geo/bbox.ts";
import { nextTask } from "../lib/next-task.ts";
import type { Logger } from "../logger.ts";
import type { Pack } from "../packs/types.ts";
import { resolveSearchArea } from "../search/search-area.ts";
import { searchSites } from "../search/engine.ts";
import { openPacks, type VisiblePacks, wholePacks } from "../packs/open-pack.ts";
import type { SearchQuery, SearchWork } from "../search/query.ts";
import type { SearchMatch, SearchMatchesMore } from "./diff.ts";
import type { PackVersion } from "./versions.ts";

/** New matches recorded one by one per alert and publish; the rest are one `more_matches` change. */
export const SEARCH_MATCH_CAP = 50;
/** A search matching more lots than this in either version is not compared (the CSV export's cap). */
export const SEARCH_SCAN_MAX = 5_000;

/** A lot a search matched in one version, in the search's order. */
export type Match = { lotId: string; address: string | null; point: [number, number] };

const num = (n: number) => n.toLocaleString("en-AU");

/** The search in a person's words: `zones R3, area at least 600 m² in Epping`. */
export function searchSummary(q: SearchQuery): string {
  const f = q.filters ?? {};
  const parts: string[] = [];
  if (f.zones?.length) parts.push(`zone${f.zones.length > 1 ? "s" : ""} ${f.zones.join(", ")}`);
  const min = f.area_m2?.min;
  const max = f.area_m2?.max;
  if (min !== undefined && max !== undefined) parts.push(`area ${num(min)} to ${num(max)} m²`);
  else if (min !== undefined) parts.push(`area at least ${num(min)} m²`);
  else if (max !== undefined) parts.push(`area at most ${num(max)} m²`);
  if (f.fsr_min !== undefined) parts.push(`FSR at least ${f.fsr_min}:1`);
  if (f.height_min_m !== undefined) parts.push(`height at least ${f.height_min_m} m`);
  if (f.meets_min_lot) parts.push("meets the minimum lot size");
  if (f.exclude?.length) parts.push(`no ${f.exclude.join(", ")}`);
  if (f.station_within_m !== undefined) parts.push(`within ${num(f.station_within_m)} m of a station`);
  const a = q.area;
  const where =
    "suburb" in a ? a.suburb : "lga" in a ? a.lga : "bbox" in a ? "a box on the map" : "an area drawn on the map";
  return `${parts.length ? parts.join(", ") : "any lot"} in ${where}`;
}

/**
 * The lots of `after` not in `before`, in `after`'s order: the first `cap` as one change each, the rest as one
 * count (at the first uncounted lot's point). Pure: the keys depend only on the pack, the lot and the new version.
 */
export function newMatchChanges(
  before: readonly Match[],
  after: readonly Match[],
  at: { packId: string; to: string; search: string },
  cap = SEARCH_MATCH_CAP,
): (SearchMatch | SearchMatchesMore)[] {
  const had = new Set(before.map((m) => m.lotId));
  const fresh = after.filter((m) => !had.has(m.lotId));
  const out: (SearchMatch | SearchMatchesMore)[] = fresh.slice(0, cap).map((m) => ({
    type: "search_match",
    kind: "new_match",
    lot_id: m.lotId,
    address: m.address,
    search: at.search,
    point: m.point,
    key: `search_match:${at.packId}:${m.lotId}:${at.to}`,
  }));
  const first = fresh[cap];
  if (first) {
    out.push({
      type: "search_match",
      kind: "more_matches",
      more: fresh.length - cap,
      search: at.search,
      point: first.point,
      key: `search_match:${at.packId}:more:${at.to}`,
    });
  }
  return out;
}

// The packs a search reads for one version: the version itself and the context packs its facts are cut against.
function packsOf(v: PackVersion, context: readonly Pack[]): VisiblePacks {
  return openPacks(v.kind === "whole" ? [v.pack, ...context] : [...context, v.paged]);
}

/**
 * Every lot of this version the search matches, in its order, in one pass within the search budget; null when more
 * than `scanMax` match (the engine stops counting there, so the work stops near the cap).
 */
export async function matchesIn(
  v: PackVersion,
  context: readonly Pack[],
  q: SearchQuery,
  scanMax = SEARCH_SCAN_MAX,
): Promise<{ matches: Match[] | null; work: SearchWork }> {
  const found = await searchSites(
    packsOf(v, context),
    { area: q.area, filters: q.filters, sort: q.sort, limit: scanMax },
    { stopAbove: scanMax, maxLimit: scanMax },
  );
  if (found.stopped) return { matches: null, work: found.work };
  const matches: Match[] = [];
  for (const r of found.results) {
    if (r.pack_id === v.id && r.lot_id !== null) matches.push({ lotId: r.lot_id, address: r.address, point: r.center });
  }
  return { matches, work: found.work };
}

/** The area's box, or null when the packs no longer know its suburb or LGA. */
function areaBox(v: PackVersion, context: readonly Pack[], q: SearchQuery): BBox | null {
  try {
    return resolveSearchArea(wholePacks(packsOf(v, context)), q.area).bbox;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * The changes one search_match alert hears of a publish: nothing when its area misses both versions, its place is
 * unknown or it matches too many lots (logged); a damaged page throws, and the publish is retried.
 */
export async function searchMatchChanges(
  job: { packId: string; from: PackVersion; to: PackVersion; context: readonly Pack[] },
  alert: { id: string; search: SearchQuery },
  log: Logger,
  scanMax = SEARCH_SCAN_MAX,
): Promise<(SearchMatch | SearchMatchesMore)[]> {
  const q = alert.search;
  const box = areaBox(job.to, job.context, q);
  if (!box || (!bboxIntersects(box, job.from.bbox) && !bboxIntersects(box, job.to.bbox))) return [];
  let before: Match[] | null = null;
  let after: Match[] | null = null;
  try {
    // One version after the other, and none after one matches too many: a scan is the consumer's heaviest work.
    before = (await matchesIn(job.from, job.context, q, scanMax)).matches;
    await nextTask();
    if (before) after = (await matchesIn(job.to, job.context, q, scanMax)).matches;
  } catch (err) {
    // A saved search the engine now refuses (its area too large, a place gone) cannot be mended by a retry.
    if (err instanceof NotFoundError || err instanceof UnprocessableError) {
      log.warn("saved search not compared: the engine refused it", { alert_id: alert.id, error: err });
      return [];
    }
    throw err;
  }
  if (!before || !after) {
    log.warn("saved search not compared: it matches too many lots", { alert_id: alert.id, most: scanMax });
    return [];
  }
  return newMatchChanges(before, after, { packId: job.packId, to: job.to.version, search: searchSummary(q) });
}
