// Follow-ups over the last results: narrow, widen or sort "those", pick "the top N" / "the largest N", and score
// exactly the lots meant, named by lot id so the approval lists them.
import { filtersText } from "./answers.ts";
import { FILTER_KEYS, type Filters, OVERLAYS, type Overlay } from "./constraints.ts";
import type { Args, Call, ListedLot, Search } from "./conversation.ts";
import type { Sort } from "./order.ts";
import { constrains, hasFilters, type Request } from "./request.ts";

/** Sites one scoring call takes at most (score_sites' bound). */
export const MAX_SCORED = 20;
/** Sites scored when an area is scored with no count (score_sites' default). */
export const DEFAULT_SCORED = 10;

export const UNRESOLVED =
  'I cannot tell which lots you mean: nothing has been found in this conversation yet. Ask for lots first (for example "Show me R2 lots over 600 m2 in Epping"), then ask about "those" or "the top 3".';

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(", ");

/** The sentence naming words the planner did not understand, and that it did not apply them. */
export const ignoredNote = (words: readonly string[]): string =>
  words.length === 0 ? "" : `I did not understand ${quoted(words)}, so I did not apply it.`;

/** The area and filters a search ran with, without its order or size. */
export function scopeOf(args: Args): Args {
  const out: Args = {};
  for (const k of ["suburb", "station", "bbox", "hazard_free", ...FILTER_KEYS])
    if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/** Where the last search looked, as a phrase: "in Epping", "near Central station", "in the map view". */
const whereOf = (scope: Args): string =>
  typeof scope.suburb === "string"
    ? `in ${scope.suburb}`
    : typeof scope.station === "string"
      ? `near ${scope.station} station`
      : "in the map view";

/** The last search's scope as the follow-up changes it: filters dropped, overlays allowed again, the new ones set. */
export function refine(scope: Args, q: Request): Args {
  const out: Args = { ...scope };
  for (const k of q.widen.drop) delete out[k];
  const f: Filters = q.filters;
  if (f.zones) {
    const before = Array.isArray(out.zones) ? (out.zones as string[]) : [];
    out.zones = q.widen.addZones ? [...new Set([...before, ...f.zones])] : f.zones;
  }
  for (const k of ["min_area_m2", "max_area_m2", "fsr_min", "height_min_m", "station_within_m"] as const)
    if (f[k] !== undefined) out[k] = f[k];
  if (f.exclude || q.widen.include.length > 0) {
    // hazard_free, as an older call may carry it, is flood and bushfire.
    const was = new Set<Overlay>(Array.isArray(out.exclude) ? (out.exclude as Overlay[]) : []);
    if (out.hazard_free === true) for (const k of ["flood", "bushfire"] as const) was.add(k);
    delete out.hazard_free;
    for (const k of q.widen.include) was.delete(k);
    for (const k of f.exclude ?? []) was.add(k);
    const exclude = OVERLAYS.filter((k) => was.has(k));
    if (exclude.length > 0) out.exclude = exclude;
    else delete out.exclude;
  }
  return out;
}

const sortOf = (args: Args): Sort => (typeof args.sort === "string" ? (args.sort as Sort) : "area");

/** The listed lots in the order asked, the first `count` of them; null when the listing cannot say which. */
function pick(q: Request, lots: readonly ListedLot[], shownSort: Sort, matched: number): ListedLot[] | null {
  let ordered: ListedLot[] | null = [...lots];
  if (q.sort !== null && q.sort !== shownSort) {
    if (q.sort === "area") ordered.sort((a, b) => b.area_m2 - a.area_m2);
    else if (q.sort === "station" && lots.every((l) => l.station_m !== null))
      ordered.sort((a, b) => (a.station_m ?? 0) - (b.station_m ?? 0));
    else ordered = null;
  }
  if (!ordered) return null;
  const n = q.count ?? ordered.length;
  // More than were listed: the listing can say which only when it listed every match.
  if (n > ordered.length && matched > ordered.length) return null;
  return ordered.slice(0, n);
}

const sameScope = (a: Search, b: Search) => JSON.stringify(scopeOf(a.args)) === JSON.stringify(scopeOf(b.args));

/** The latest listing of the same lots in the order asked ("the largest one" after "the closest one"), else the latest. */
function listingFor(q: Request, searches: readonly Search[]): Search | null {
  const last = searches[0];
  if (!last) return null;
  const wanted = q.sort ?? sortOf(last.args);
  return searches.find((s) => sameScope(s, last) && sortOf(s.args) === wanted && s.lots.length > 0) ?? last;
}

/** What a follow-up about the last results calls, or says; null when the question is not one. */
export function followUp(q: Request, searches: readonly Search[], shown: readonly ListedLot[]): Call | string | null {
  const last = listingFor(q, searches);
  const lots = last?.lots ?? shown;
  if (!last && lots.length === 0) return UNRESOLVED;
  const scope = last ? scopeOf(last.args) : null;
  const shownSort = last ? sortOf(last.args) : "area";
  const matched = last?.matched ?? lots.length;
  if (!constrains(q) && !q.wants.score && !q.wants.describe) {
    if (q.ignored.length === 0) return null;
    const what = scope
      ? `the last search is still lots ${whereOf(scope)} ${filtersText(scope)}`
      : "the last results stand";
    return `I did not understand ${quoted(q.ignored)}, so I changed nothing: ${what}. I can narrow lots by zone, area, FSR, height, distance to a station, and flood, bushfire or heritage, sort them, or take the top few.`;
  }
  const narrowed = hasFilters(q.filters) || q.widen.drop.length > 0 || q.widen.include.length > 0;
  const picked = narrowed ? null : pick(q, lots, shownSort, matched);
  if (q.wants.score) {
    if (picked && picked.length > 0 && (q.count !== null || q.sort !== null || matched <= lots.length))
      return { name: "score_sites", args: { lot_ids: picked.slice(0, MAX_SCORED).map((l) => l.lot_id) } };
    // "Score them" with more matches than one call may score: the lots the answer was given by name.
    if (!narrowed && q.count === null && q.sort === null && matched > MAX_SCORED)
      return { name: "score_sites", args: { lot_ids: lots.slice(0, MAX_SCORED).map((l) => l.lot_id) } };
    // score_sites picks an area's largest lots itself: right when the lots meant are the largest ones.
    const largest = (q.sort ?? shownSort) === "area" || (narrowed && q.sort === null);
    if (scope && largest) {
      const limit = Math.min(q.count ?? (narrowed ? DEFAULT_SCORED : matched), MAX_SCORED);
      return { name: "score_sites", args: { ...refine(scope, q), limit } };
    }
    if (!scope || (q.count === null && q.sort === null))
      return { name: "score_sites", args: { lot_ids: lots.slice(0, q.count ?? MAX_SCORED).map((l) => l.lot_id) } };
    // Another order than the listing's: list them in it first (the answer offers to score them).
  }
  if (picked && q.count === 1 && q.sort !== "station" && (q.wants.describe || !q.wants.parcels))
    return picked[0] ? { name: "describe_parcel", args: { lot_id: picked[0].lot_id } } : UNRESOLVED;
  if (!scope) return UNRESOLVED;
  // Narrowed, widened or counted, a listing keeps its order unless another is asked (a pick's order was the pick's).
  const sort = q.sort ?? (last?.args.limit === undefined ? shownSort : "area");
  return {
    name: "find_parcels",
    args: {
      ...refine(scope, q),
      ...(sort !== "area" ? { sort } : {}),
      ...(q.count !== null ? { limit: q.count } : {}),
    },
  };
}
