// A lot's neighbours as a page of a lots pack stores them (neighbours.ts), with its ordinal in the pack; apart from the
// coding so that building a pack (encode.ts) never imports the reader.
import { decodeNeighbours, firstOrdinals, NEIGHBOURS_COLUMN, type PackNeighbour } from "./neighbours.ts";
import { type DecodedPage, pageValue } from "./page.ts";
import type { Snapshot } from "./reader.ts";

const firsts = new WeakMap<Snapshot, Float64Array>();

/**
 * Lot `i` of `page`: its ordinal, and its neighbours as the pack stores them (null: the pack was built without the
 * column, or the value is unreadable, so adjacency is computed from the outlines).
 */
export function pageNeighbours(
  s: Snapshot,
  page: DecodedPage,
  i: number,
): { ordinal: number; neighbours: PackNeighbour[] | null } {
  let first = firsts.get(s);
  if (!first) {
    first = firstOrdinals(s.root.pageCounts);
    firsts.set(s, first);
  }
  const ordinal = (first[page.no] as number) + i;
  const col = s.root.meta.columns.findIndex((c) => c.name === NEIGHBOURS_COLUMN.name);
  if (col < 0) return { ordinal, neighbours: null };
  const v = pageValue(page, col, i);
  try {
    return { ordinal, neighbours: decodeNeighbours(ordinal, typeof v === "string" ? v : null) };
  } catch {
    // A value the coding cannot read: this lot's neighbours are measured from the outlines instead.
    return { ordinal, neighbours: null };
  }
}
