// Groups of adjoining lots as batch rows and back: each group one row of `lot_ids` (scored as one site, at one row's
// price), and each scored row found again by those ids, so the groups table can show its yield and value (pure).
import { MAX_BATCH_ROWS } from "../../../../src/credits/prices.ts";
import { csvCell } from "../../csv.ts";
import type { SiteRow } from "../../site-row.ts";
import type { FoundGroup } from "./types.ts";

/** The batch column holding a group's lots, separated by LOT_SEPARATOR (the batch's contract for a group row). */
export const LOT_IDS_COLUMN = "lot_ids";
export const LOT_SEPARATOR = ";";

/** A group's lot ids, or null when a lot has none (such a group cannot be named to batch by its lots). */
export function groupLots(g: FoundGroup): string[] | null {
  return g.lots.every((l): l is string => l !== null) ? g.lots : null;
}

/** The same lots, whatever their order: how a scored row is matched to its group. */
const lotsKey = (ids: readonly string[]) => [...ids].sort().join(LOT_SEPARATOR);

/** How a group is named to a person: how many lots, and which. */
export function groupName(g: FoundGroup): string {
  return `${g.lots.length} lots: ${g.lots.map((l) => l ?? "a lot without an id").join(" + ")}`;
}

/** The groups batch can score: the first, in the table's order, up to a batch's rows. */
export function scorableGroups(groups: readonly FoundGroup[]): FoundGroup[] {
  return groups.filter((g) => groupLots(g) !== null).slice(0, MAX_BATCH_ROWS);
}

/** The groups as a batch upload: one row each, its lots in one cell. */
export function groupsBatchCsv(groups: readonly FoundGroup[]): string {
  const line = (cells: unknown[]) => cells.map(csvCell).join(",");
  return [
    line(["site_name", LOT_IDS_COLUMN]),
    ...scorableGroups(groups).map((g) => line([groupName(g), (groupLots(g) ?? []).join(LOT_SEPARATOR)])),
  ].join("\n");
}

/** What scoring a group found: its dwellings and its residual land value (null where the row gave none). */
export type GroupScore = { dwellings: number | null; rlv: number | null };

/** The batch's scored rows by the lots each named, newest last so a group scored again shows its newest score. */
export function groupScores(rows: readonly SiteRow[]): Map<string, GroupScore> {
  const by = new Map<string, GroupScore>();
  for (const r of rows) {
    const ids = r.kind === "result" ? r.input[LOT_IDS_COLUMN] : undefined;
    if (r.kind !== "result" || !ids) continue;
    const lots = ids
      .split(LOT_SEPARATOR)
      .map((s) => s.trim())
      .filter(Boolean);
    by.set(lotsKey(lots), { dwellings: r.feasibility.dwelling_yield, rlv: r.value?.rlv ?? null });
  }
  return by;
}

export function scoreOfGroup(scores: ReadonlyMap<string, GroupScore>, g: FoundGroup): GroupScore | null {
  const lots = groupLots(g);
  return lots ? (scores.get(lotsKey(lots)) ?? null) : null;
}

/** The box around these groups' outlines, [W, S, E, N], or null when there are none. */
export function groupsBox(groups: readonly FoundGroup[]): [number, number, number, number] | null {
  const box: [number, number, number, number] = [180, 90, -180, -90];
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === "number" && typeof c[1] === "number") {
      box[0] = Math.min(box[0], c[0]);
      box[1] = Math.min(box[1], c[1]);
      box[2] = Math.max(box[2], c[0]);
      box[3] = Math.max(box[3], c[1]);
    } else for (const x of c) walk(x);
  };
  for (const g of groups) walk(g.geometry.coordinates);
  return groups.length > 0 && box[0] <= box[2] ? box : null;
}
