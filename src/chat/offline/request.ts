// One question parsed into the structure the planner decides from: where (lot, suburb, view, the last area), the
// filters, the order and count, whether it refers to the last results, what it asks for, and the words it ignored.
import { type Filters, readConstraints, type Widening } from "./constraints.ts";
import { readOrder, type Sort } from "./order.ts";
import { IN_VIEW, IT, readLot, readPlace, stationNamed, suburbNamed, THERE } from "./places.ts";
import { Reader } from "./reader.ts";

export interface Request {
  lot: string | null;
  place: string | null;
  /** A station named as the place ("near Central station") when its name is no suburb's. */
  station: string | null;
  inView: boolean;
  there: boolean;
  /** "it": the last search when the question changes it, else the last lot or area. */
  it: boolean;
  /** "what about Eastwood?", "same in Eastwood": the last search again, elsewhere. */
  again: boolean;
  /** "those", "them", "the ones": the last results. */
  refers: boolean;
  filters: Filters;
  widen: Widening;
  /** "near a station" with no distance given. */
  stationDefault: boolean;
  sort: Sort | null;
  count: number | null;
  wants: { score: boolean; where: boolean; summary: boolean; describe: boolean; parcels: boolean; assemble: boolean };
  /** "the groups", "the first group": groups of adjoining lots listed earlier (a count of 1 for "the first group"). */
  groups: boolean;
  /** Phrases no rule understood, to be named in the answer. */
  ignored: string[];
}

const REFERS =
  /\b(?:those|them|these|they|the\s+ones|the\s+results?|(?:that|this|the)\s+list|the\s+last\s+(?:search|results?|list|ones)|same\s+(?:search|area|lots|filters)|the\s+above)\b/i;
const AGAIN =
  /\b(?:what|how)\s+about\b|\bsame\s+(?:in|for|search|thing|again)\b|\b(?:do|try|run)\s+(?:the\s+same|that|this|it)(?:\s+again)?\s+(?:in|for)\b|\binstead\b/i;
const SCORE = /\b(?:score[ds]?|scoring|rate|rating|feasib\w*|assess\w*|evaluat\w*|rank|appraise)\b/i;
const WHERE =
  /\bwhere\s+(?:is|are)\b|\blocate\b|\bgeocode\b|\b(?:take\s+me|go|zoom|fly|move|pan)\s+(?:the\s+map\s+)?to\b/i;
const SUMMARY =
  /\b(?:(?:affected|impacted)\s+by\s+|subject\s+to\s+|any\s+)?(?:zon(?:e|es|ing)|hazards?|flood\w*|bush\s?fires?|heritage|summar\w*|overview|constraints?|transport|controls?|planning)(?:[\s-]+(?:risks?|prone|affected|items?|listed|areas?|zones?|overlays?|mix|controls?))?\b|\bwhat(?:'s|\s+is)\s+(?:at|in|near|around|there)\b|\btell\s+me\s+about\b/i;
// Lots bought together: "3 adjoining lots", "amalgamate", "combine neighbouring lots", "making 1,800 m2 together".
const ASSEMBLE =
  /\b(?:adjoining|adjacent|abutting|neighbouring|neighboring|next[\s-]door|side[\s-]by[\s-]side|amalgamat\w*|consolidat\w*|combin(?:e|ed|ing)|assembl(?:e|y|ies|ed|ing))\b/i;
// The words that join the lots to their total: "making", "that make", "together", "into a 2,000 m2 site".
const ASSEMBLE_JOIN =
  /\b(?:(?:that|which)\s+)?(?:mak(?:e|es|ing)|to\s+make|giv(?:e|es|ing)|form(?:s|ing)?|total(?:ling|ing)?|add(?:s|ing)?\s+up\s+to|together|in\s+total|combined|into(?:\s+an?)?|for(?:\s+an?)?|sites?|up\s+to)\b/gi;
// Groups find_assemblies listed: "score the groups", "score the first group", "score the top 2 groups".
const GROUPS = /\b(?:the\s+)?(?:(first|top|best)\s+)?(groups?)\b/i;
const DESCRIBE = /\b(?:describe|details?|info(?:rmation)?|facts?|tell\s+me\s+(?:more\s+)?about)\b/i;
const PARCELS = /\b(?:parcels?|lots?|sites?|blocks?|properties|land|plots?|ones|candidates)\b/i;

/** The question as the planner's grammar reads it. */
export function parseRequest(question: string): Request {
  const r = new Reader(question);
  const lot = readLot(r);
  // Order first: "by distance to the station" is a sort, not a station filter.
  const order = readOrder(r);
  const c = readConstraints(r);
  let place = lot ? null : readPlace(r);
  c.stationPlace ??= order.stationPlace;
  let station: string | null = null;
  if (c.stationPlace !== null) {
    const named = suburbNamed(c.stationPlace);
    if (named) place ??= named;
    // Central, Town Hall, Wynyard: the lots around the station itself, whatever suburbs they are in.
    else if (!lot && place === null && stationNamed(c.stationPlace)) station = stationNamed(c.stationPlace);
    // An unknown station name: the geocoder refuses it by name when capitalised; other words are said to be ignored.
    else if (/^\p{Lu}/u.test(c.stationPlace)) place ??= c.stationPlace;
  }
  const group = r.takeOne(GROUPS);
  // "the first group": one, the first listed.
  const count = order.count ?? (group?.[1] && group[2]?.toLowerCase() === "group" ? 1 : null);
  const inView = r.take(IN_VIEW).length > 0;
  const there = r.take(THERE).length > 0;
  const it = r.take(IT).length > 0;
  const again = r.take(AGAIN).length > 0;
  const refers = r.take(REFERS).length > 0;
  const wants = {
    score: r.take(SCORE).length > 0,
    where: r.take(WHERE).length > 0,
    summary: r.take(SUMMARY).length > 0,
    describe: r.take(DESCRIBE).length > 0,
    parcels: r.take(PARCELS).length > 0,
    assemble: r.take(ASSEMBLE).length > 0,
  };
  if (wants.assemble) r.take(ASSEMBLE_JOIN);
  const ignored = r.ignored();
  if (c.stationPlace !== null && station === null && place !== suburbNamed(c.stationPlace) && place !== c.stationPlace)
    ignored.push(`${c.stationPlace} station`);
  return {
    lot,
    place,
    station,
    inView,
    there,
    it,
    again,
    refers,
    filters: c.filters,
    widen: c.widen,
    stationDefault: c.stationDefault,
    sort: order.sort,
    count,
    wants,
    groups: group !== null,
    ignored,
  };
}

export const hasFilters = (f: Filters): boolean => Object.keys(f).length > 0;

/** Whether the question constrains, orders or counts lots at all. */
export const constrains = (q: Request): boolean =>
  hasFilters(q.filters) || q.sort !== null || q.count !== null || q.widen.drop.length > 0 || q.widen.include.length > 0;
