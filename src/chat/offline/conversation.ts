// What the offline planner reads from the conversation besides the question: the map context, earlier calls and
// their areas, the last search and the lots it listed, and this turn's tool results.
import type { ToolResult } from "./answers.ts";
import { textOf, type ChatMessage } from "./wire.ts";

export type Args = Record<string, unknown>;
export type Area = { suburb: string } | { station: string } | { bbox: number[] } | { lot_id: string };
export type Call = { name: string; args: Args };

export function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
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

/** Tool calls before `end`, latest first. */
export function callsBefore(messages: readonly ChatMessage[], end: number): Call[] {
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

export function areaOf(args: Args): Area | null {
  if (typeof args.lot_id === "string") return { lot_id: args.lot_id };
  if (Array.isArray(args.lot_ids) && typeof args.lot_ids[0] === "string") return { lot_id: args.lot_ids[0] };
  if (typeof args.suburb === "string") return { suburb: args.suburb };
  if (typeof args.station === "string") return { station: args.station };
  if (Array.isArray(args.bbox)) return { bbox: args.bbox as number[] };
  return null;
}

/** A lot a tool listed, in the order it listed them. */
export interface ListedLot {
  lot_id: string;
  area_m2: number;
  /** Metres to the nearest station, when the listing said. */
  station_m: number | null;
}

/** A lot search that ran: its arguments, the lots it listed (in its order) and how many matched. */
export interface Search {
  args: Args;
  lots: ListedLot[];
  matched: number;
}

const listed = (list: unknown): ListedLot[] =>
  (Array.isArray(list) ? (list as Record<string, unknown>[]) : []).flatMap((p) => {
    if (typeof p?.lot_id !== "string") return [];
    const station = p.station as { distance_m?: unknown } | null | undefined;
    const station_m = typeof station?.distance_m === "number" ? station.distance_m : null;
    return [{ lot_id: p.lot_id, area_m2: Number(p.area_m2) || 0, station_m }];
  });

/** The lots the latest tool result listing lots showed (a search's or a scoring's), in their shown order. */
export function lotsBefore(messages: readonly ChatMessage[], end: number): ListedLot[] {
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "tool") continue;
    const out = parseJson(textOf(m.content)) as { parcels?: unknown; scored?: unknown } | undefined;
    const lots = listed(out?.parcels ?? out?.scored);
    if (lots.length > 0) return lots;
  }
  return [];
}

/** Lot searches (find_parcels calls with their results) before `end`, latest first. */
export function searchesBefore(messages: readonly ChatMessage[], end: number): Search[] {
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
      const out = outputs.get(tc.id) as { parcels?: unknown; matched?: unknown } | undefined;
      if (!args || typeof args !== "object" || !out || !Array.isArray(out.parcels)) continue;
      const lots = listed(out.parcels);
      found.push({ args: args as Args, lots, matched: typeof out.matched === "number" ? out.matched : lots.length });
    }
  }
  return found;
}

/** This turn's tool results (after the last question), in call order. */
export function resultsAfter(messages: readonly ChatMessage[], start: number): ToolResult[] {
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

/** The groups of adjoining lots (each its lot ids) the latest listing showed, when it was find_assemblies'; else []. */
export function groupsBefore(messages: readonly ChatMessage[], end: number): string[][] {
  for (let i = end - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "tool") continue;
    const out = parseJson(textOf(m.content)) as { groups?: unknown; parcels?: unknown; scored?: unknown } | undefined;
    if (Array.isArray(out?.groups))
      return (out.groups as { lots?: unknown }[]).flatMap((g) => {
        const lots = Array.isArray(g?.lots) ? g.lots.filter((l): l is string => typeof l === "string") : [];
        return lots.length > 1 ? [lots] : [];
      });
    // A later listing of lots: "them" means those lots, not the groups before.
    if (listed(out?.parcels ?? out?.scored).length > 0) return [];
  }
  return [];
}
