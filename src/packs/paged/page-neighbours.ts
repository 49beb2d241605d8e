// A lot's neighbours as a page of a lots pack stores them (neighbours.ts), with its ordinal in the pack; apart from the
// coding so that building a pack (encode.ts) never imports the reader.
import { decodeNeighbours, firstOrdinals, NEIGHBOURS_COLUMN, type PackNeighbour } from "./neighbours.ts";
import { type DecodedPage, pageValue } from "./page.ts";
import type { Snapshot } from "./reader.ts";

// Per pack version: each page's first ordinal and the neighbours column's place (-1: none), found once, not once a lot.
const layouts = new WeakMap<Snapshot, { first: Float64Array; col: number }>();

/**
 * Lot `i` of `page`: its ordinal, and its neighbours as the pack stores them (null: the pack was built without the
 * column, or the value is unreadable, so adjacency is computed from the outlines).
 */
export function pageNeighbours(
  s: Snapshot,
  page: DecodedPage,
  i: number,
): { ordinal: number; neighbours: PackNeighbour[] | null } {
  let layout = layouts.get(s);
  if (!layout) {
    layout = {
      first: firstOrdinals(s.root.pageCounts),
      col: s.root.meta.columns.findIndex((c) => c.name === NEIGHBOURS_COLUMN.name),
    };
    layouts.set(s, layout);
  }
  const { first, col } = layout;
  const ordinal = (first[page.no] as number) + i;
  if (col < 0) return { ordinal, neighbours: null };
  const v = pageValue(page, col, i);
  try {
    return { ordinal, neighbours: decodeNeighbours(ordinal, typeof v === "string" ? v : null) };
  } catch {
    // A value the coding cannot read: this lot's neighbours are measured from the outlines instead.
    return { ordinal, neighbours: null };
  }
}
