// The order of a search's results and its cursor: a position in that order, bound to the search it came from.
import { UnprocessableError } from "../errors.ts";
import type { FactsTable } from "./facts-table.ts";
import type { SearchSort } from "./query.ts";

/**
 * A lot's place in the order: its sort value (null last), pack id, lot key, then `k`, the lot's ordinal in its pack
 * version (page and index): uploads may repeat a lot id, so only `k` makes the order total.
 */
export type Position = { v: number | null; p: string; l: string; k: number; r?: number };

// A page holds fewer lots than this, so page * PAGE_STRIDE + index is unique in a pack version (and exact below 2^53).
export const PAGE_STRIDE = 2 ** 24;

/** The ordinal of lot `index` of page `page` (a v1 pack is one page, 0). */
export const ordinalOf = (page: number, index: number): number => page * PAGE_STRIDE + index;

/** A lot's margin over its as-is value on the caller's assumptions (src/search/value-figures.ts). */
export type MarginOf = (t: FactsTable, i: number) => number | null;

/** The value a lot sorts by; larger first except for the station distance. */
export function sortValue(sort: SearchSort, t: FactsTable, i: number, margin?: MarginOf): number | null {
  if (sort === "value") return margin ? margin(t, i) : null;
  const raw =
    sort === "area"
      ? (t.area[i] as number)
      : sort === "fsr"
        ? (t.fsr[i] as number)
        : sort === "height"
          ? (t.height[i] as number)
          : (t.stationM[i] as number);
  return Number.isNaN(raw) ? null : raw;
}

/** A lot's key within its pack: its id, or its ordinal when it has none. */
export function lotKey(t: FactsTable, i: number, ordinal: number): string {
  return t.lotId[i] ?? `#${ordinal}`;
}

/** Negative when a comes before b. */
export function compare(sort: SearchSort, a: Position, b: Position): number {
  if (a.v !== b.v) {
    if (a.v === null) return 1;
    if (b.v === null) return -1;
    return sort === "station" ? a.v - b.v : b.v - a.v;
  }
  if (a.p !== b.p) return a.p < b.p ? -1 : 1;
  // A sidecar's rank is the lot's place in (key, ordinal) order within its pack: the same order, without the key.
  if (a.r !== undefined && b.r !== undefined) return a.r - b.r;
  if (a.l !== b.l) return a.l < b.l ? -1 : 1;
  return a.k - b.k;
}

// FNV-1a of the search's canonical JSON: a cursor from another search is refused, not misapplied.
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

/** `assumptions`: the version a value sort priced lots on, which the cursor names. */
export function encodeCursor(search: string, after: Position, assumptions?: number): string {
  const at = assumptions === undefined ? {} : { av: assumptions };
  return b64(JSON.stringify({ s: search, v: after.v, p: after.p, l: after.l, k: after.k, ...at }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const badCursor = (why: string) => new UnprocessableError(why, ["body", "cursor"], "value_error");

/**
 * The position a cursor holds; a cursor of another search, or not one at all, is a 422, as is a value sort's cursor
 * made under other assumptions than `assumptions` (its order would not be this one).
 */
export function decodeCursor(search: string, cursor: string, assumptions?: number): Position {
  let parsed: unknown;
  try {
    const bin = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0))));
  } catch {
    throw badCursor("The cursor is not one this service gave: start the search again without it");
  }
  const c = parsed as { s?: unknown; v?: unknown; p?: unknown; l?: unknown; k?: unknown; av?: unknown };
  const valid =
    typeof c === "object" &&
    c !== null &&
    (c.v === null || typeof c.v === "number") &&
    typeof c.p === "string" &&
    typeof c.l === "string" &&
    (c.k === undefined || (typeof c.k === "number" && Number.isSafeInteger(c.k) && c.k >= 0));
  if (!valid) throw badCursor("The cursor is not one this service gave: start the search again without it");
  if (c.s !== search)
    throw badCursor("The cursor belongs to another search: use it with the same area, filters and sort");
  if (assumptions !== undefined && c.av !== assumptions) {
    const was = typeof c.av === "number" ? `version ${c.av}` : "no version";
    throw badCursor(
      `The organisation's valuation assumptions changed since this search began (${was}, now version ${assumptions}), so its order by value changed too: start the search again without the cursor`,
    );
  }
  // A cursor from before ordinals continues after every lot sharing its key, as it did then.
  const k = c.k === undefined ? Number.MAX_SAFE_INTEGER : (c.k as number);
  return { v: c.v as number | null, p: c.p as string, l: c.l as string, k };
}
