// The offline planner: a deterministic stand-in for a language model (embedded in the Worker as the
// default model, and behind the local model server).
// It reads the conversation as a model would (last question, map context, earlier tool calls and this
// turn's tool results), picks one tool call by keywords and place names, then answers from the results.
import { answerFrom, type ToolResult } from "./answers.ts";
import { textOf, type ChatMessage, type PlannerTurn } from "./wire.ts";

export const PLANNER_NOTICE =
  "(Offline planner: a deterministic stand-in for a language model; it answers only from the data packs.)";

type Args = Record<string, unknown>;
type Area = { suburb: string } | { bbox: number[] } | { lot_id: string };
type Call = { name: string; args: Args };

// The demo packs' suburbs, recognised even when typed in lower case.
const KNOWN_PLACES = ["Newtown", "Erskineville", "Epping", "Eastwood", "Carlingford", "Parramatta"];
const NOT_PLACES = new Set(["Lot", "DP", "SP", "The", "My", "This", "That", "These", "View", "Map"]);

const AREA_UNIT = String.raw`\s*(?:m2|m²|sqm|sq\.?\s?m|square\s+met(?:re|er)s?)`;
const MIN_AREA = new RegExp(
  String.raw`(?:over|above|more than|larger than|bigger than|at least|greater than|from|>=?)\s*([\d,.]+)${AREA_UNIT}`,
  "i",
);
const MAX_AREA = new RegExp(
  String.raw`(?:under|below|less than|smaller than|at most|up to|<=?)\s*([\d,.]+)${AREA_UNIT}`,
  "i",
);
const BETWEEN = new RegExp(String.raw`between\s*([\d,.]+)(?:${AREA_UNIT})?\s*and\s*([\d,.]+)${AREA_UNIT}`, "i");
const ZONE = /\b(R[1-5]|RU[1-6]|B[1-8]|E[1-4]|MU1|RE[12]|IN[1-4]|SP[1-5]|C[1-4])\b/g;
const HAZARD_FREE =
  /\b(?:without|no|free of|outside|avoid\w*|not (?:in|under|affected by))\s+(?:any\s+)?(?:the\s+)?(?:flood|bushfire|hazard)|\b(?:flood|hazard|bushfire)[- ]free\b/i;
const LOT_SLASH = /\b\d+[A-Z]?\s*\/\s*\w*\s*\/\s*[A-Z]{1,3}\s*\d+\b/i;
const LOT_WORDS =
  /\blot\s+\w+(?:\s+sec(?:tion)?\s+\w+)?\s+(?:in\s+|on\s+)?(?:DP|SP|deposited plan|strata plan)\s*\d+\b/i;

const WANTS_SCORE = /\b(score|rate|rating|feasib\w*|assess\w*|evaluate|rank)\b/i;
const WANTS_PARCELS = /\b(parcels?|lots?|sites?|blocks?|properties|land)\b/i;
const WANTS_SUMMARY =
  /\b(zon(?:e|es|ing)|hazards?|flood\w*|bushfire|heritage|summar\w*|overview|constraints?|transport|what(?:'s| is) (?:at|in|near|around|there)|tell me about|describe)\b/i;
const WANTS_WHERE = /\bwhere is\b|\blocate\b|\bgeocode\b/i;
const DEICTIC = /\b(these|those|this area|in view|on (?:the )?(?:map|screen)|visible|here|viewport|current view)\b/i;
const IN_VIEW = /\b(in view|on (?:the )?(?:map|screen)|visible|viewport|current view|this area|here)\b/i;
// "there" as a place, not "is there any ...".
const THERE = /(?<!\b(?:is|are|was|were)\s+)\bthere\b|\bthat (?:area|suburb|place|lot|parcel|site)\b|\bit\b/i;
const THESE = /\b(these|those|them)\b/i;
// References to what the conversation found: they need earlier results.
const BACK_REFERENCE =
  /\b(those|them|the ones|of them|the largest one|the biggest one|the closest one|the nearest one)\b/i;
const LARGEST_ONE = /\b(?:the\s+)?(?:largest|biggest)(?:\s+(?:one|lot|site|parcel))?\b/i;
const CLOSEST_STATION =
  /\b(?:closest|nearest)\b.*\b(?:station|train|railway|rail)\b|\b(?:station|train)\b.*\b(?:closest|nearest)\b/i;

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/,/g, "")));

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function placeIn(q: string): string | null {
  const re =
    /\b(?:in|at|near|around|of|for|about)\s+((?:St\.?\s+|Mt\.?\s+)?[A-Z][A-Za-z'’-]+(?:\s+[A-Z][A-Za-z'’-]+)*)/g;
  for (const m of q.matchAll(re)) {
    const words = (m[1] as string).split(/\s+/).filter((w) => !NOT_PLACES.has(w));
    if (words.length > 0) return words.join(" ");
  }
  const lower = q.toLowerCase();
  return KNOWN_PLACES.find((p) => new RegExp(`\\b${p.toLowerCase()}\\b`).test(lower)) ?? null;
}

function lotIn(q: string): string | null {
  return (LOT_SLASH.exec(q) ?? LOT_WORDS.exec(q))?.[0] ?? null;
}

function filtersIn(q: string): Args {
  const out: Args = {};
  const between = BETWEEN.exec(q);
  if (between) {
    out.min_area_m2 = num(between[1]);
    out.max_area_m2 = num(between[2]);
  } else {
    const min = num(MIN_AREA.exec(q)?.[1]);
    const max = num(MAX_AREA.exec(q)?.[1]);
    if (min !== undefined) out.min_area_m2 = min;
    if (max !== undefined) out.max_area_m2 = max;
  }
  const zones = [...new Set([...q.matchAll(ZONE)].map((m) => m[1] as string))];
  if (zones.length > 0) out.zones = zones;
  if (HAZARD_FREE.test(q)) out.hazard_free = true;
  return out;
}

/** The map context the agent put in its instructions, as JSON after "Map context". */
export function mapContext(messages: readonly ChatMessage[]): {
  bbox?: number[] | null;
  viewport_bbox?: number[] | null;
} {
  for (const m of messages) {
    if (m.role !== "system" && m.role !== "developer") continue;
    const hit = /Map context[^:\n]*:\s*(\{.*\})/.exec(textOf(m.content));
    const parsed = hit ? parseJson(hit[1] as string) : undefined;
    if (parsed && typeof parsed === "object")
      return parsed as { bbox?: number[] | null; viewport_bbox?: number[] | null };
  }
  return {};
}

function callsBefore(messages: readonly ChatMessage[], end: number): Call[] {
  const calls: Call[] = [];
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant" || !m.tool_calls) continue;
    for (const tc of m.tool_calls) {
      const args = parseJson(tc.function.arguments);
      if (args && typeof args === "object") calls.push({ name: tc.function.name, args: args as Args });
    }
  }
  return calls;
}

function areaOf(args: Args): Area | null {
  if (typeof args.lot_id === "string") return { lot_id: args.lot_id };
  if (Array.isArray(args.lot_ids) && typeof args.lot_ids[0] === "string") return { lot_id: args.lot_ids[0] };
  if (typeof args.suburb === "string") return { suburb: args.suburb };
  if (Array.isArray(args.bbox)) return { bbox: args.bbox as number[] };
  return null;
}

// Lot ids the previous turn showed, for "score these".
function lotsBefore(messages: readonly ChatMessage[], end: number): string[] {
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "tool") continue;
    const out = parseJson(textOf(m.content)) as
      | { parcels?: { lot_id?: unknown }[]; scored?: { lot_id?: unknown }[] }
      | undefined;
    const list = out?.parcels ?? out?.scored;
    const ids = (list ?? []).map((p) => p.lot_id).filter((x): x is string => typeof x === "string");
    if (ids.length > 0) return ids;
  }
  return [];
}

/** The latest lot search of the conversation: its arguments and the lots it listed (largest first unless sorted). */
interface Search {
  args: Args;
  lots: { lot_id: string; area_m2: number }[];
}

function searchesBefore(messages: readonly ChatMessage[], end: number): Search[] {
  const outputs = new Map<string, unknown>();
  for (let i = 0; i < end; i++) {
    const m = messages[i];
    if (m?.role === "tool") outputs.set(m.tool_call_id, parseJson(textOf(m.content)));
  }
  const found: Search[] = [];
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant" || !m.tool_calls) continue;
    for (const tc of [...m.tool_calls].reverse()) {
      if (tc.function.name !== "find_parcels") continue;
      const args = parseJson(tc.function.arguments);
      const out = outputs.get(tc.id) as { parcels?: { lot_id?: unknown; area_m2?: unknown }[] } | undefined;
      if (!args || typeof args !== "object" || !out || !Array.isArray(out.parcels)) continue;
      const lots = out.parcels.flatMap((p) =>
        typeof p.lot_id === "string" ? [{ lot_id: p.lot_id, area_m2: Number(p.area_m2) || 0 }] : [],
      );
      found.push({ args: args as Args, lots });
    }
  }
  return found;
}

const FILTER_KEYS = ["min_area_m2", "max_area_m2", "zones", "hazard_free"] as const;

/** The area and filters a search ran with, without its order or size. */
function scopeOf(args: Args): Args {
  const out: Args = {};
  for (const k of ["suburb", "bbox", ...FILTER_KEYS]) if (args[k] !== undefined) out[k] = args[k];
  return out;
}

const UNRESOLVED =
  'I cannot tell which lots you mean: nothing has been found in this conversation yet. Ask for lots first (for example "Show me R2 lots over 600 m2 in Epping"), then ask about "those" or "the largest one".';

function resultsAfter(messages: readonly ChatMessage[], start: number): ToolResult[] {
  const byId = new Map<string, Call>();
  const out: ToolResult[] = [];
  for (let i = start + 1; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role === "assistant")
      for (const tc of m.tool_calls ?? [])
        byId.set(tc.id, { name: tc.function.name, args: (parseJson(tc.function.arguments) as Args) ?? {} });
    if (m?.role === "tool") {
      const call = byId.get(m.tool_call_id);
      const text = textOf(m.content);
      out.push({ name: call?.name ?? "unknown", args: call?.args ?? {}, output: parseJson(text) ?? text });
    }
  }
  return out;
}

function decide(question: string, messages: readonly ChatMessage[], lastUser: number): Call | string {
  const ctx = mapContext(messages);
  const viewBox = ctx.bbox ?? ctx.viewport_bbox ?? null;
  const history = callsBefore(messages, lastUser);
  const previous = history.map((c) => areaOf(c.args)).find((a): a is Area => a !== null) ?? null;
  const lot = lotIn(question);
  const place = lot ? null : placeIn(question);
  const filters = filtersIn(question);
  const searches = searchesBefore(messages, lastUser);
  const last = searches[0] ?? null;
  const refers = !lot && !place && BACK_REFERENCE.test(question);

  // Follow-ups about what the conversation found: they resolve to the previous search, or say what is missing.
  if (refers && !last && lotsBefore(messages, lastUser).length === 0) return UNRESOLVED;
  if (!lot && !place && last) {
    if (CLOSEST_STATION.test(question) && (refers || !IN_VIEW.test(question)))
      return { name: "find_parcels", args: { ...scopeOf(last.args), ...filters, sort: "station", limit: 1 } };
    if (LARGEST_ONE.test(question) && refers) {
      // Largest of the set: an area-ordered listing of the same search lists it first.
      const byArea = searches.find((s) => s.args.sort !== "station" && s.lots.length > 0);
      const largest = byArea?.lots[0] ?? [...last.lots].sort((a, b) => b.area_m2 - a.area_m2)[0];
      if (!largest) return UNRESOLVED;
      return WANTS_SCORE.test(question)
        ? { name: "score_sites", args: { lot_ids: [largest.lot_id] } }
        : { name: "describe_parcel", args: { lot_id: largest.lot_id } };
    }
    // "Now only the ones over 800 m2": the previous search's area and filters, refined by the new ones.
    if (Object.keys(filters).length > 0 && !IN_VIEW.test(question) && !WANTS_SCORE.test(question))
      return { name: "find_parcels", args: { ...scopeOf(last.args), ...filters } };
  }

  if (lot)
    return WANTS_SCORE.test(question)
      ? { name: "score_sites", args: { lot_ids: [lot] } }
      : { name: "describe_parcel", args: { lot_id: lot } };
  if (place && WANTS_WHERE.test(question)) return { name: "geocode_suburb", args: { suburb: place } };

  let area: Area | null = null;
  if (place) area = { suburb: place };
  else if (IN_VIEW.test(question) && viewBox) area = { bbox: viewBox };
  else if (THERE.test(question) && previous) area = previous;
  else if (DEICTIC.test(question) && viewBox) area = { bbox: viewBox };
  else area = previous ?? (viewBox ? { bbox: viewBox } : null);

  if (WANTS_SCORE.test(question)) {
    const earlier = THESE.test(question) ? lotsBefore(messages, lastUser) : [];
    if (earlier.length > 0) return { name: "score_sites", args: { lot_ids: earlier.slice(0, 10) } };
    if (area && "lot_id" in area) return { name: "score_sites", args: { lot_ids: [area.lot_id] } };
    if (area) return { name: "score_sites", args: { ...area, ...filters, limit: 10 } };
  }
  const hasFilters = Object.keys(filters).length > 0;
  if (area && !("lot_id" in area) && (hasFilters || (WANTS_PARCELS.test(question) && !WANTS_SUMMARY.test(question)))) {
    return { name: "find_parcels", args: { ...area, ...filters } };
  }
  if (area && (WANTS_SUMMARY.test(question) || place || THERE.test(question))) {
    return "lot_id" in area
      ? { name: "describe_parcel", args: { lot_id: area.lot_id } }
      : { name: "summarise_area", args: area };
  }
  return 'Which area do you mean? Name a suburb (for example Epping or Parramatta), a lot ("Lot 12 DP 34567"), or move the map and ask about the parcels in view.';
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
  const results = resultsAfter(messages, lastUser);
  if (results.length > 0) return { text: notice + answerFrom(results) };
  const decision = decide(textOf(messages[lastUser]?.content), messages, lastUser);
  if (typeof decision === "string") return { text: notice + decision };
  if (!toolNames.has(decision.name))
    return { text: `${notice}I would use the ${decision.name} tool for that, but it is not available here.` };
  return { tool_calls: [{ name: decision.name, arguments: decision.args }] };
}
