// Scored sites as CSV for spreadsheets: pure (no DOM), so Node's unit tests read it too.
import type { SiteRow } from "./site-row.ts";

// OWASP CSV injection: a spreadsheet runs a cell starting with = + - @ (or tab, CR, or their full-width
// forms) as a formula. Such a cell gets a leading ' so it shows as text, unless it is a plain number (-33.8).
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One CSV cell: neutralised if a spreadsheet would read it as a formula, then quoted when it must be. */
export function csvCell(v: unknown): string {
  const text = v === null || v === undefined ? "" : String(v);
  const s = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** What the site is worth on the organisation's assumptions (empty in rows scored before values were). */
export const VALUE_COLUMNS = ["rlv", "as_is", "margin_over_as_is", "assumptions_version"] as const;

export const RESULT_COLUMNS = [
  "lot_id",
  "address",
  "area_m2",
  "score",
  "rating",
  "yield_basis",
  "existing",
  ...VALUE_COLUMNS,
  "reasons_or_error",
] as const;

type Existing = Extract<SiteRow, { kind: "result" }>["feasibility"]["existing"];

/** What stands, as the uplift was counted against it: "strata, 24 units (SP12345)", "house (assumed)". */
export function existingCell(e: Existing): string {
  if (e === undefined) return "";
  const kind = e.kind.replace("_", " ");
  const what =
    e.kind === "strata"
      ? `strata, ${e.units ?? e.dwellings} units${e.strata_plan ? ` (${e.strata_plan})` : ""}`
      : e.kind === "employment" && e.floor_space_m2 !== undefined
        ? `employment, ${e.floor_space_m2} m²`
        : kind;
  return e.assumed ? `${what} (assumed)` : what;
}

/** What scoring found for a site, in the order of the result columns (the reasons as a list). */
export function scoredValues(r: Extract<SiteRow, { kind: "result" }>): unknown[] {
  const f = r.feasibility;
  return [
    r.parcel.lot_id,
    r.parcel.address,
    r.parcel.area_m2,
    r.score,
    r.rating,
    f.yield_basis,
    existingCell(f.existing),
    r.value?.rlv ?? null,
    r.value?.as_is ?? null,
    r.value?.margin_over_as_is ?? null,
    r.value?.assumptions_version ?? null,
    r.reasons,
  ];
}

/** The uploaded column names in first-seen order, and the result names beside them (`result_` where the upload uses one). */
export function exportColumns(
  rows: readonly SiteRow[],
  result: readonly string[] = RESULT_COLUMNS,
): { inputs: string[]; results: string[] } {
  const inputs = [...new Set(rows.flatMap((r) => Object.keys(r.input)))];
  // A result column whose name the upload already uses is told apart, so no uploaded value is overwritten.
  const taken = new Set(["line", ...inputs]);
  return { inputs, results: result.map((c) => (taken.has(c) ? `result_${c}` : c)) };
}

/** The uploaded columns as they came (in first-seen order), then what scoring found; `line` is the file's line. */
export function sitesCsv(rows: readonly SiteRow[]): string {
  const { inputs, results } = exportColumns(rows);
  const head = ["line", ...inputs, ...results];
  const lines = rows.map((r) => [
    r.line,
    ...inputs.map((k) => r.input[k] ?? ""),
    ...(r.kind === "result"
      ? scoredValues(r).map((v) => (Array.isArray(v) ? v.join("; ") : v))
      : [...RESULT_COLUMNS.slice(1).map(() => ""), r.detail]),
  ]);
  return [head, ...lines].map((l) => l.map(csvCell).join(",")).join("\n");
}
