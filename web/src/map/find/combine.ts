// "Combine adjoining lots": the switch and its target as a person fills them, the assembly they ask for with the
// search's own area and filters, and their place in the page's URL (pure: unit-tested).
import {
  ASSEMBLY_MAX_LOTS,
  ASSEMBLY_MIN_LOTS,
  ASSEMBLY_SORTS,
} from "../../../../src/routes/schemas/assemble-limits.ts";
import { type Built, type FindForm, queryOf } from "./query.ts";
import type { AssembleQuery, GroupSort } from "./types.ts";

/** Numbers stay as typed, as in the rest of the form. */
export type CombineForm = { on: boolean; target: string; mostLots: string; sort: GroupSort };

export const EMPTY_COMBINE: CombineForm = { on: false, target: "", mostLots: "6", sort: "owners" };

export const GROUP_SORTS: { id: GroupSort; label: string }[] = [
  { id: "owners", label: "Fewest owners" },
  { id: "lots", label: "Fewest lots" },
  { id: "area", label: "Largest area" },
  { id: "frontage", label: "Widest frontage" },
];

/** The assembly the form asks for (the search's area and filters, every lot passing them), or what to fix first. */
export function assembleQueryOf(form: FindForm, combine: CombineForm): Built<AssembleQuery> {
  const search = queryOf(form);
  const problems: string[] = search.ok ? [] : [search.problem];
  const target = Number(combine.target.trim());
  if (combine.target.trim() === "") problems.push("Target area: the least area the lots must make together, in m².");
  else if (!Number.isFinite(target) || target <= 0) problems.push("Target area must be a number above 0.");
  const most = Number(combine.mostLots.trim());
  if (!Number.isInteger(most) || most < ASSEMBLY_MIN_LOTS || most > ASSEMBLY_MAX_LOTS)
    problems.push(`Most lots must be a whole number from ${ASSEMBLY_MIN_LOTS} to ${ASSEMBLY_MAX_LOTS}.`);
  if (!search.ok || problems.length > 0) return { ok: false, problem: problems.join(" ") };
  const { area, filters } = search.query;
  return { ok: true, query: { area, filters, target: { min_area_m2: target, max_lots: most }, sort: combine.sort } };
}

const KEYS = ["combine", "target", "most_lots", "group_sort"];

/** The URL's query string with the switch and its target in it (left out while the switch is off). */
export function combineParams(c: CombineForm, current = new URLSearchParams()): URLSearchParams {
  const p = new URLSearchParams(current);
  for (const k of KEYS) p.delete(k);
  if (!c.on) return p;
  p.set("combine", "1");
  if (c.target.trim() !== "") p.set("target", c.target.trim());
  if (c.mostLots.trim() !== "") p.set("most_lots", c.mostLots.trim());
  if (c.sort !== EMPTY_COMBINE.sort) p.set("group_sort", c.sort);
  return p;
}

/** The switch a link holds, values kept as written (assembleQueryOf says what is wrong). */
export function combineFromParams(p: URLSearchParams): CombineForm {
  if (p.get("combine") !== "1") return EMPTY_COMBINE;
  const sort = p.get("group_sort");
  return {
    on: true,
    target: p.get("target") ?? "",
    mostLots: p.get("most_lots") ?? EMPTY_COMBINE.mostLots,
    sort: (ASSEMBLY_SORTS as readonly string[]).includes(sort ?? "") ? (sort as GroupSort) : EMPTY_COMBINE.sort,
  };
}
