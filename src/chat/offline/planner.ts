// The offline planner: a deterministic stand-in for a language model (embedded in the Worker as the
// default model, and behind the local model server).
// It reads the conversation as a model would (last question, map context, earlier tool calls and this turn's tool
// results), parses the question into one request (area, filters, order, count, the last results), makes one tool
// call from it, then answers from the results, naming any words it did not understand.
import {
  ASSEMBLY_MAX_LOTS,
  ASSEMBLY_MIN_LOTS,
  CHAT_MAX_GROUPS as MAX_GROUPS,
} from "../../routes/schemas/assemble-limits.ts";
import { answerFrom } from "./answers.ts";
import { NEAR_STATION_M } from "./constraints.ts";
import {
  type Area,
  type Call,
  areaOf,
  callsBefore,
  groupsBefore,
  lotsBefore,
  mapContext,
  resultsAfter,
  searchesBefore,
} from "./conversation.ts";
import { DEFAULT_SCORED, followUp, ignoredNote, scopeOf, UNRESOLVED } from "./follow-up.ts";
import { constrains, hasFilters, parseRequest, type Request } from "./request.ts";
import { textOf, type ChatMessage, type PlannerTurn } from "./wire.ts";

export const PLANNER_NOTICE =
  "(Offline planner: a deterministic stand-in for a language model; it answers only from the data packs.)";

const WHICH_AREA =
  'Which area do you mean? Name a suburb (for example Epping or Parramatta), a lot ("Lot 12 DP 34567"), or move the map and ask about the parcels in view.';

/** The area and filters of a new search, as find_parcels and score_sites take them. */
function searchArgs(area: Area, q: Request): Record<string, unknown> {
  return { ...area, ...q.filters, ...(q.sort && q.sort !== "area" ? { sort: q.sort } : {}) };
}

const sortArg = (args: Record<string, unknown>) =>
  typeof args.sort === "string" && args.sort !== "area" && args.limit === undefined ? { sort: args.sort } : {};

const WHAT_TOTAL =
  "What area should the lots make together? For example: 3 adjoining R3 lots in Epping making at least 1,800 m².";

/** "3 adjoining R3 lots making 1,800 m²": the area is the group's total, the number the most lots in a group. */
function assembly(area: Area, q: Request): Call | string {
  const { min_area_m2: total, ...perLot } = q.filters;
  if (total === undefined) return WHAT_TOTAL;
  const most = q.count === null ? {} : { max_lots: Math.min(ASSEMBLY_MAX_LOTS, Math.max(ASSEMBLY_MIN_LOTS, q.count)) };
  return { name: "find_assemblies", args: { ...area, ...perLot, target_area_m2: total, ...most } };
}

function decide(q: Request, messages: readonly ChatMessage[], lastUser: number): Call | string {
  const ctx = mapContext(messages);
  const viewBox = ctx.bbox ?? ctx.viewport_bbox ?? null;
  const previous =
    callsBefore(messages, lastUser)
      .map((c) => areaOf(c.args))
      .find((a): a is Area => a !== null) ?? null;
  const searches = searchesBefore(messages, lastUser);
  const last = searches[0] ?? null;
  const shown = lotsBefore(messages, lastUser);

  if (q.lot)
    return q.wants.score
      ? { name: "score_sites", args: { lot_ids: [q.lot] } }
      : { name: "describe_parcel", args: { lot_id: q.lot } };
  if (q.place && q.wants.where) return { name: "geocode_suburb", args: { suburb: q.place } };

  const elsewhere = q.place !== null || q.station !== null || q.inView || q.there;
  // "Score the first group", "score them" after find_assemblies: each group scored as one site, in the order listed.
  const groups = groupsBefore(messages, lastUser);
  if (
    q.wants.score &&
    !elsewhere &&
    groups.length > 0 &&
    (q.groups || q.refers || q.count !== null) &&
    !hasFilters(q.filters)
  )
    return { name: "score_sites", args: { groups: groups.slice(0, Math.min(q.count ?? MAX_GROUPS, MAX_GROUPS)) } };

  // About the last results: "only those without heritage", "sort them by FSR", "score the top 3".
  const about = constrains(q) || (q.wants.score && q.count !== null) || (q.wants.parcels && q.ignored.length > 0);
  if (
    !elsewhere &&
    !q.wants.assemble &&
    (q.refers || (about && (last || shown.length > 0)) || (q.it && about && last))
  ) {
    const next = followUp(q, searches, shown);
    if (next !== null) return next;
  }

  // "What about Eastwood?" after a search: the same filters and order there.
  if (q.place && q.again && last && !constrains(q) && !q.wants.summary && !q.wants.where && !q.wants.score) {
    const filters = scopeOf(last.args);
    delete filters.suburb;
    delete filters.bbox;
    delete filters.station;
    return { name: "find_parcels", args: { suburb: q.place, ...filters, ...sortArg(last.args) } };
  }

  // "Score the top 3" with nothing listed yet: which three is not known, and guessing would charge for others.
  if (!elsewhere && q.count !== null && !q.wants.parcels && !last && shown.length === 0) return UNRESOLVED;

  let area: Area | null = null;
  if (q.station) area = { station: q.station };
  else if (q.place) area = { suburb: q.place };
  else if (q.inView && viewBox) area = { bbox: viewBox };
  else if ((q.there || q.it) && previous) area = previous;
  else area = previous ?? (viewBox ? { bbox: viewBox } : null);

  if (q.wants.assemble && area && !("lot_id" in area)) return assembly(area, q);
  if (q.wants.score && area) {
    if ("lot_id" in area) return { name: "score_sites", args: { lot_ids: [area.lot_id] } };
    return { name: "score_sites", args: { ...area, ...q.filters, limit: q.count ?? DEFAULT_SCORED } };
  }
  const lots = constrains(q) || (q.wants.parcels && !q.wants.summary);
  if (area && !("lot_id" in area) && lots)
    return { name: "find_parcels", args: { ...searchArgs(area, q), ...(q.count !== null ? { limit: q.count } : {}) } };
  if (area && (q.wants.summary || q.wants.describe || q.place || q.there || q.it)) {
    return "lot_id" in area
      ? { name: "describe_parcel", args: { lot_id: area.lot_id } }
      : { name: "summarise_area", args: area };
  }
  if (q.ignored.length > 0 && !area) return `${ignoredNote(q.ignored)} ${WHICH_AREA}`;
  return WHICH_AREA;
}

/** What the answer adds about how the question was read: a default it took, words it ignored, a next step. */
function readingNotes(q: Request, results: readonly { name: string }[]): string {
  const notes: string[] = [];
  if (q.stationDefault && q.filters.station_within_m === NEAR_STATION_M)
    notes.push(
      `I took "near a station" as within ${NEAR_STATION_M} m of one (the outer band of the Low and Mid-Rise Housing policy); name a distance to change it.`,
    );
  notes.push(ignoredNote(q.ignored));
  if (q.wants.score && results.every((r) => r.name === "find_parcels"))
    notes.push('I listed them first: say "score them" to score these lots.');
  return notes.filter((n) => n !== "").join(" ");
}

/** The next turn for a conversation: one tool call, or an answer built from this turn's tool results. */
export function plan(messages: readonly ChatMessage[], toolNames: ReadonlySet<string>): PlannerTurn {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const firstAnswer = !messages.slice(0, Math.max(lastUser, 0)).some((m) => m.role === "assistant");
  const notice = firstAnswer ? `${PLANNER_NOTICE} ` : "";
  if (lastUser < 0) return { text: `${notice}Ask me about a suburb, a lot or the parcels in view.` };
  const q = parseRequest(textOf(messages[lastUser]?.content));
  const results = resultsAfter(messages, lastUser);
  if (results.length > 0) {
    const notes = readingNotes(q, results);
    return { text: notice + answerFrom(results) + (notes ? ` ${notes}` : "") };
  }
  const decision = decide(q, messages, lastUser);
  if (typeof decision === "string") return { text: notice + decision };
  if (!toolNames.has(decision.name))
    return { text: `${notice}I would use the ${decision.name} tool for that, but it is not available here.` };
  return { tool_calls: [{ name: decision.name, arguments: decision.args }] };
}
