// parseSitesCsv: uploaded CSV text to located site rows, or a rejection whose detail says what is wrong and what is accepted.
import { dsvFormat } from "d3-dsv";
import { ACCEPTED_COLUMNS, columnKeys, findLocationColumns } from "./columns.ts";
import type { LocationColumns } from "./columns.ts";
import { detectDelimiter } from "./delimiter.ts";
import type { Delimiter } from "./delimiter.ts";
import { checkLatLon, checkLotNumber } from "./rows.ts";
import type { CsvRejection } from "./sniff.ts";

export { sniffBinary, decodeCsvBytes } from "./sniff.ts";
export type { CsvRejection, DecodedText } from "./sniff.ts";
export type { Delimiter } from "./delimiter.ts";

export const MAX_CSV_ROWS = 50;

export type CsvMode = "latlon" | "lot";

export interface CsvSiteRow {
  index: number; // 0-based among non-blank data rows
  line: number; // 1-based line in the file where the row starts
  input: Record<string, string>; // every column, values unchanged
  extra: Record<string, string>; // the columns other than the location columns
  lat?: number | null;
  lon?: number | null;
  lotNumber?: string;
  problem?: string; // why this row cannot be scored
}

export interface ParsedCsv {
  ok: true;
  mode: CsvMode;
  delimiter: Delimiter;
  columns: string[]; // column keys in file order
  locationColumns: { lat?: string; lon?: string; lot?: string };
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
  for (const f of fields) if (f.length > 0 && f.trim() !== "") return false;
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
      else if (c === 13) { n++; if (f.charCodeAt(i + 1) === 10) i++; }
    }
  }
  return n;
}

interface RawRow {
  fields: string[];
  line: number;
}

function splitRecords(text: string, delimiter: Delimiter): { header: string[] | null; rows: RawRow[] } {
  let header: string[] | null = null;
  let line = 1;
  const rows: RawRow[] = [];
  dsvFormat(delimiter).parseRows(text, (fields) => {
    const start = line;
    line += 1 + embeddedLineBreaks(fields);
    if (isBlank(fields)) return null;
    if (header === null) header = fields;
    else rows.push({ fields, line: start });
    return null;
  });
  return { header, rows };
}

const LOOKS_NUMERIC = /^\s*[+\-\u2212]?(?:\d+[.,]?\d*|[.,]\d+)\s*$/;

function describeColumns(keys: readonly string[]): string {
  return keys.length === 0 ? "(none)" : keys.join(", ");
}

function chooseMode(loc: LocationColumns, keys: readonly string[], header: readonly string[], rows: readonly RawRow[]): { mode: CsvMode; notes: string[] } | CsvRejection {
  const hasLatLon = loc.lat !== null && loc.lon !== null;
  if (!hasLatLon && (loc.lat !== null || loc.lon !== null)) {
    const found = loc.lat !== null ? `a latitude column (${keys[loc.lat]})` : `a longitude column (${keys[loc.lon ?? 0]})`;
    const missing = loc.lat !== null ? "longitude" : "latitude";
    return reject(`Found ${found} but no ${missing} column. Accepted: ${ACCEPTED_COLUMNS}.`);
  }
  if (!hasLatLon && loc.lot === null) {
    if (header.some((h) => h.trim() !== "") && header.every((h) => h.trim() === "" || LOOKS_NUMERIC.test(h))) {
      return reject(`The first line looks like data, not column names (${header.join(", ")}). Add a header row naming the columns. Accepted: ${ACCEPTED_COLUMNS}.`);
    }
    return reject(`No recognisable location columns. Found: ${describeColumns(keys)}. Accepted: ${ACCEPTED_COLUMNS}.`);
  }
  const notes: string[] = [];
  if (hasLatLon && loc.fromXY) notes.push(`Using column ${keys[loc.lon ?? 0]} as longitude and ${keys[loc.lat ?? 0]} as latitude.`);
  if (!hasLatLon) return { mode: "lot", notes };
  if (loc.lot === null) return { mode: "latlon", notes };
  const lotName = keys[loc.lot] ?? "lot_number";
  // A template with empty coordinate columns but filled lot numbers is a lot upload.
  const coordsUsed = rows.some((r) => (r.fields[loc.lat ?? 0] ?? "").trim() !== "" || (r.fields[loc.lon ?? 0] ?? "").trim() !== "");
  if (!coordsUsed) {
    notes.push(`Both latitude/longitude and ${lotName} columns found; the coordinate columns are empty, so lot numbers are used.`);
    return { mode: "lot", notes };
  }
  notes.push(`Both latitude/longitude and ${lotName} columns found; using latitude/longitude (${lotName} is kept as an extra column).`);
  return { mode: "latlon", notes };
}

function rowRecords(fields: readonly string[], keys: readonly string[], locationIdx: ReadonlySet<number>): { input: Record<string, string>; extra: Record<string, string> } {
  const input: Record<string, string> = {};
  const extra: Record<string, string> = {};
  const n = Math.max(fields.length, keys.length);
  for (let i = 0; i < n; i++) {
    const value = fields[i] ?? "";
    const key = keys[i] ?? `column ${i + 1}`;
    // Unnamed trailing columns (Excel's stray delimiters) only matter when they hold something.
    if ((i >= keys.length || key === `column ${i + 1}`) && value === "") continue;
    input[key] = value;
    if (!locationIdx.has(i)) extra[key] = value;
  }
  return { input, extra };
}

export function parseSitesCsv(text: string, opts: ParseCsvOptions = {}): ParsedCsv | CsvRejection {
  const maxRows = opts.maxRows ?? MAX_CSV_ROWS;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body)) return reject("The file is empty.");
  if (body.slice(0, 8192).includes("\u0000")) return reject("The file looks like a compressed or binary file (it contains NUL bytes). Upload a plain-text CSV.");

  const delimiter = detectDelimiter(body);
  const { header, rows } = splitRecords(body, delimiter);
  if (header === null) return reject("The file is empty.");
  const keys = columnKeys(header);
  const loc = findLocationColumns(header);
  const choice = chooseMode(loc, keys, header, rows);
  if ("ok" in choice) return choice;
  if (rows.length === 0) return reject("The file has no data rows (only a header).");
  if (rows.length > maxRows) return reject(`Too many rows: ${rows.length}. At most ${maxRows} sites per upload.`);

  const { mode, notes } = choice;
  const latIdx = mode === "latlon" ? loc.lat : null;
  const lonIdx = mode === "latlon" ? loc.lon : null;
  const lotIdx = mode === "lot" ? loc.lot : null;
  const locationIdx = new Set<number>([latIdx, lonIdx, lotIdx].filter((i): i is number => i !== null));
  const decimalComma = delimiter !== ",";

  const out: CsvSiteRow[] = rows.map((r, index) => {
    const { input, extra } = rowRecords(r.fields, keys, locationIdx);
    const row: CsvSiteRow = { index, line: r.line, input, extra };
    if (latIdx !== null && lonIdx !== null) {
      const check = checkLatLon(r.fields[latIdx] ?? "", r.fields[lonIdx] ?? "", decimalComma);
      row.lat = check.lat;
      row.lon = check.lon;
      if (check.problem !== undefined) row.problem = check.problem;
    } else if (lotIdx !== null) {
      const check = checkLotNumber(r.fields[lotIdx] ?? "");
      row.lotNumber = check.lotNumber;
      if (check.problem !== undefined) row.problem = check.problem;
    }
    return row;
  });

  const locationColumns: ParsedCsv["locationColumns"] = {};
  if (latIdx !== null) locationColumns.lat = keys[latIdx];
  if (lonIdx !== null) locationColumns.lon = keys[lonIdx];
  if (lotIdx !== null) locationColumns.lot = keys[lotIdx];
  return { ok: true, mode, delimiter, columns: keys, locationColumns, rows: out, notes };
}
