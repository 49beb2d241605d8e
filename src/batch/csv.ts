// parseSitesCsv: uploaded CSV text to located site rows, or a rejection whose detail says what is wrong and what is accepted.
import { dsvFormat } from "d3-dsv";
import { MAX_BATCH_ROWS } from "../credits/prices.ts";
import { ACCEPTED_COLUMNS, addressIndices, columnKeys, findLocationColumns, GROUP_SEPARATOR } from "./columns.ts";
import type { LocationColumns } from "./columns.ts";
import { detectDelimiter } from "./delimiter.ts";
import type { Delimiter } from "./delimiter.ts";
import { checkAddress, checkLatLon, checkLotNumber } from "./rows.ts";
import type { CsvRejection } from "./sniff.ts";

export { sniffBinary, decodeCsvBytes } from "./sniff.ts";
export type { CsvRejection, DecodedText } from "./sniff.ts";
export type { Delimiter } from "./delimiter.ts";

export type CsvMode = "latlon" | "lot" | "address";

export interface CsvSiteRow {
  index: number; // 0-based among non-blank data rows
  line: number; // 1-based line in the file where the row starts
  input: Record<string, string>; // every column, values unchanged
  extra: Record<string, string>; // the columns other than the location columns
  lat?: number | null;
  lon?: number | null;
  lotNumber?: string;
  address?: string; // the street address to find the lot by (its columns joined with ", ")
  lotIds?: string[]; // a group of adjoining lots scored as one site (its lot_ids cell), instead of the row's location
  problem?: string; // why this row cannot be scored
}

export interface ParsedCsv {
  ok: true;
  mode: CsvMode;
  delimiter: Delimiter;
  columns: string[]; // column keys in file order
  locationColumns: { lat?: string; lon?: string; lot?: string; address?: string[] };
  rows: CsvSiteRow[];
  notes: string[]; // choices made on the caller's behalf, worth showing
}

export interface ParseCsvOptions {
  maxRows?: number;
}

function reject(detail: string): CsvRejection {
  return { ok: false, detail };
}

function isBlank(fields: readonly string[]): boolean {
  for (const f of fields) {
    if (f.length === 0) continue;
    if (f.charCodeAt(0) > 32 || f.trim() !== "") return false;
  }
  return true;
}

// Line breaks inside quoted fields, so later rows get their true line numbers.
function embeddedLineBreaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) {
    if (f.indexOf("\n") < 0 && f.indexOf("\r") < 0) continue;
    for (let i = 0; i < f.length; i++) {
      const c = f.charCodeAt(i);
      if (c === 10) n++;
      else if (c === 13) {
        n++;
        if (f.charCodeAt(i + 1) === 10) i++;
      }
    }
  }
  return n;
}

interface RawRow {
  fields: string[];
  line: number;
}

const LOOKS_NUMERIC = /^\s*[+\-\u2212]?(?:\d+[.,]?\d*|[.,]\d+)\s*$/;

function describeColumns(keys: readonly string[]): string {
  return keys.length === 0 ? "(none)" : keys.join(", ");
}

// "both" means latitude/longitude and lot number columns are present; the rows settle it.
type Plan = { mode: CsvMode | "both"; notes: string[] };

function planFromHeader(loc: LocationColumns, keys: readonly string[], header: readonly string[]): Plan | CsvRejection {
  const hasLatLon = loc.lat !== null && loc.lon !== null;
  if (!hasLatLon && (loc.lat !== null || loc.lon !== null)) {
    const found =
      loc.lat !== null ? `a latitude column (${keys[loc.lat]})` : `a longitude column (${keys[loc.lon ?? 0]})`;
    const missing = loc.lat !== null ? "longitude" : "latitude";
    return reject(`Found ${found} but no ${missing} column. Accepted: ${ACCEPTED_COLUMNS}.`);
  }
  if (!hasLatLon && loc.lot === null && loc.address === null && loc.group === null) {
    if (header.some((h) => h.trim() !== "") && header.every((h) => h.trim() === "" || LOOKS_NUMERIC.test(h))) {
      return reject(
        `The first line looks like data, not column names (${header.join(", ")}). Add a header row naming the columns. Accepted: ${ACCEPTED_COLUMNS}.`,
      );
    }
    return reject(`No recognisable location columns. Found: ${describeColumns(keys)}. Accepted: ${ACCEPTED_COLUMNS}.`);
  }
  const notes: string[] = [];
  if (hasLatLon && loc.fromXY)
    notes.push(`Using column ${keys[loc.lon ?? 0]} as longitude and ${keys[loc.lat ?? 0]} as latitude.`);
  // Coordinates or a lot number say exactly where; an address is looked up, so it is used only without them.
  // A file of groups alone is a lot upload: each row's lots are named by id.
  if (!hasLatLon) return { mode: loc.lot === null && loc.address !== null ? "address" : "lot", notes };
  return { mode: loc.lot === null ? "latlon" : "both", notes };
}

// A template with empty coordinate columns but filled lot numbers is a lot upload; otherwise coordinates win.
function resolveBoth(
  loc: LocationColumns,
  keys: readonly string[],
  rows: readonly RawRow[],
): { mode: CsvMode; note: string } {
  const lotName = keys[loc.lot ?? 0] ?? "lot_number";
  const coordsUsed = rows.some(
    (r) => (r.fields[loc.lat ?? 0] ?? "").trim() !== "" || (r.fields[loc.lon ?? 0] ?? "").trim() !== "",
  );
  return coordsUsed
    ? {
        mode: "latlon",
        note: `Both latitude/longitude and ${lotName} columns found; using latitude/longitude (${lotName} is kept as an extra column).`,
      }
    : {
        mode: "lot",
        note: `Both latitude/longitude and ${lotName} columns found; the coordinate columns are empty, so lot numbers are used.`,
      };
}

// A lot_ids cell's ids, blanks dropped (a trailing separator is no lot).
const groupLotIds = (cell: string): string[] =>
  cell
    .split(GROUP_SEPARATOR)
    .map((id) => id.trim())
    .filter((id) => id !== "");

// Builds output rows for one mode; per-column facts are worked out once, not per row.
function rowBuilder(
  mode: CsvMode,
  loc: LocationColumns,
  keys: readonly string[],
  decimalComma: boolean,
): (r: RawRow, index: number) => CsvSiteRow {
  const latIdx = mode === "latlon" ? (loc.lat ?? -1) : -1;
  const lonIdx = mode === "latlon" ? (loc.lon ?? -1) : -1;
  const lotIdx = mode === "lot" ? (loc.lot ?? -1) : -1;
  const addressIdx = mode === "address" && loc.address ? addressIndices(loc.address) : [];
  const groupIdx = loc.group ?? -1;
  // Unnamed columns (Excel's stray trailing delimiters) only matter when they hold something.
  const unnamed = keys.map((k, i) => k === `column ${i + 1}`);
  return ({ fields, line }, index) => {
    const input: Record<string, string> = {};
    const extra: Record<string, string> = {};
    const n = Math.max(fields.length, keys.length);
    for (let i = 0; i < n; i++) {
      const value = fields[i] ?? "";
      const named = i < keys.length && unnamed[i] !== true;
      if (!named && value === "") continue;
      const key = keys[i] ?? `column ${i + 1}`;
      input[key] = value;
      if (i !== latIdx && i !== lonIdx && i !== lotIdx && i !== groupIdx && !addressIdx.includes(i)) extra[key] = value;
    }
    const row: CsvSiteRow = { index, line, input, extra };
    const group = groupIdx >= 0 ? groupLotIds(fields[groupIdx] ?? "") : [];
    if (group.length > 0) row.lotIds = group;
    else if (mode === "latlon") {
      const check = checkLatLon(fields[latIdx] ?? "", fields[lonIdx] ?? "", decimalComma);
      row.lat = check.lat;
      row.lon = check.lon;
      if (check.problem !== undefined) row.problem = check.problem;
    } else if (mode === "address") {
      const check = checkAddress(addressIdx.map((i) => fields[i] ?? ""));
      row.address = check.address;
      if (check.problem !== undefined) row.problem = check.problem;
    } else if (lotIdx < 0) {
      row.problem = "lot_ids is empty";
    } else {
      const check = checkLotNumber(fields[lotIdx] ?? "");
      row.lotNumber = check.lotNumber;
      if (check.problem !== undefined) row.problem = check.problem;
    }
    return row;
  };
}

export function parseSitesCsv(text: string, opts: ParseCsvOptions = {}): ParsedCsv | CsvRejection {
  const maxRows = opts.maxRows ?? MAX_BATCH_ROWS;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body)) return reject("The file is empty.");
  if (body.slice(0, 8192).includes("\u0000"))
    return reject("The file looks like a compressed or binary file (it contains NUL bytes). Upload a plain-text CSV.");

  const delimiter = detectDelimiter(body);
  const decimalComma = delimiter !== ",";
  // Held in an object because TypeScript does not follow assignments made inside the callback.
  const st: {
    keys: string[];
    loc: LocationColumns | null;
    plan: Plan | CsvRejection | null;
    build: ((r: RawRow, index: number) => CsvSiteRow) | null;
  } = {
    keys: [],
    loc: null,
    plan: null,
    build: null,
  };
  const rows: CsvSiteRow[] = [];
  const pending: RawRow[] = [];
  let count = 0;
  let line = 1;

  // Rows are built as d3-dsv yields them, so the raw field arrays die young; work stops past the row limit.
  dsvFormat(delimiter).parseRows(body, (fields) => {
    const start = line;
    line += 1 + embeddedLineBreaks(fields);
    if (isBlank(fields)) return null;
    if (st.loc === null) {
      st.keys = columnKeys(fields);
      st.loc = findLocationColumns(fields);
      const plan = planFromHeader(st.loc, st.keys, fields);
      st.plan = plan;
      if (!("ok" in plan) && plan.mode !== "both") st.build = rowBuilder(plan.mode, st.loc, st.keys, decimalComma);
      return null;
    }
    count++;
    if (count > maxRows || (st.plan !== null && "ok" in st.plan)) return null;
    if (st.build !== null) rows.push(st.build({ fields, line: start }, count - 1));
    else pending.push({ fields, line: start });
    return null;
  });

  const { keys, loc: header, plan: chosen } = st;
  if (header === null || chosen === null) return reject("The file is empty.");
  if ("ok" in chosen) return chosen;
  if (count === 0) return reject("The file has no data rows (only a header).");
  if (count > maxRows) return reject(`Too many rows: ${count}. At most ${maxRows} sites per upload.`);

  let mode: CsvMode;
  const notes = chosen.notes.slice();
  if (chosen.mode === "both") {
    const resolved = resolveBoth(header, keys, pending);
    mode = resolved.mode;
    notes.push(resolved.note);
    const late = rowBuilder(mode, header, keys, decimalComma);
    for (const [i, r] of pending.entries()) rows.push(late(r, i));
  } else {
    mode = chosen.mode;
  }

  const locationColumns: ParsedCsv["locationColumns"] = {};
  if (mode === "latlon") {
    locationColumns.lat = keys[header.lat ?? 0];
    locationColumns.lon = keys[header.lon ?? 0];
  } else if (mode === "lot") {
    if (header.lot !== null) locationColumns.lot = keys[header.lot];
  } else if (header.address) {
    locationColumns.address = addressIndices(header.address).map((i) => keys[i] ?? `column ${i + 1}`);
  }
  return { ok: true, mode, delimiter, columns: keys, locationColumns, rows, notes };
}
