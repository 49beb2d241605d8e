// The Find sites form as a person fills it, the search it asks for, and its place in the page's URL (pure: unit-tested).
import { type BBox, EXCLUSIONS, type Exclusion, type SearchFilters, type SearchQuery, type Sort } from "./types.ts";

export type AreaChoice = { kind: "suburb" | "lga"; name: string } | { kind: "view"; bbox: BBox };

/** What the inputs hold: numbers stay as typed, so a half-typed "1." is not rewritten under the person's cursor. */
export type FindForm = {
  area: AreaChoice | null;
  zones: string;
  minArea: string;
  maxArea: string;
  minFsr: string;
  minHeight: string;
  exclude: Exclusion[];
  meetsMinLot: boolean;
  station: string;
  sort: Sort;
};

export const SORTS: { id: Sort; label: string }[] = [
  { id: "area", label: "Largest area" },
  { id: "fsr", label: "Highest FSR" },
  { id: "height", label: "Tallest height" },
  { id: "station", label: "Nearest station" },
  // On the organisation's valuation assumptions; the search stays free and shows no value figures.
  { id: "value", label: "Margin over as-is" },
];

export const EMPTY_FORM: FindForm = {
  area: null,
  zones: "",
  minArea: "",
  maxArea: "",
  minFsr: "",
  minHeight: "",
  exclude: [],
  meetsMinLot: false,
  station: "",
  sort: "area",
};

/** How an area reads in the Area box. */
export function areaLabel(a: AreaChoice): string {
  if (a.kind === "view") return "The map's view";
  return a.kind === "lga" ? `${a.name} (council area)` : a.name;
}

/** Zone codes from free text: "r2, r3 MU1" is R2, R3 and MU1. */
export function zoneCodes(text: string): string[] {
  return [
    ...new Set(
      text
        .toUpperCase()
        .split(/[\s,;]+/)
        .filter(Boolean),
    ),
  ];
}

// As the route takes them: letters and digits (R2, MU1, SP2); a word such as "residential" is not one.
const ZONE_CODE = /^[A-Z0-9]{1,6}$/;

export type Built<Q = SearchQuery> = { ok: true; query: Q } | { ok: false; problem: string };

/** The search the form asks for, or the sentence saying what to fix first. */
export function queryOf(form: FindForm): Built {
  if (!form.area) return { ok: false, problem: "Choose an area: a suburb, a council area or the map's view." };
  const filters: SearchFilters = {};
  const problems: string[] = [];
  const num = (text: string, name: string): number | undefined => {
    const t = text.trim();
    if (t === "") return undefined;
    const n = Number(t);
    if (!Number.isFinite(n) || n < 0) {
      problems.push(`${name} must be a number of 0 or more.`);
      return undefined;
    }
    return n;
  };
  const zones = zoneCodes(form.zones);
  const bad = zones.filter((z) => !ZONE_CODE.test(z));
  if (bad.length > 0) problems.push(`Zones: ${bad.join(", ")} is not a zone code (e.g. R2, MU1).`);
  else if (zones.length > 0) filters.zones = zones;
  const min = num(form.minArea, "Minimum area");
  const max = num(form.maxArea, "Maximum area");
  if (min !== undefined && max !== undefined && min > max)
    problems.push("Minimum area is larger than the maximum area.");
  else if (min !== undefined || max !== undefined)
    filters.area_m2 = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  const fsr = num(form.minFsr, "Minimum FSR");
  if (fsr !== undefined) filters.fsr_min = fsr;
  const height = num(form.minHeight, "Minimum height");
  if (height !== undefined) filters.height_min_m = height;
  const station = num(form.station, "Near a station");
  if (station !== undefined) filters.station_within_m = station;
  if (form.meetsMinLot) filters.meets_min_lot = true;
  const exclude = EXCLUSIONS.filter((e) => form.exclude.includes(e));
  if (exclude.length > 0) filters.exclude = exclude;
  if (problems.length > 0) return { ok: false, problem: problems.join(" ") };
  const a = form.area;
  const area = a.kind === "view" ? { bbox: a.bbox } : a.kind === "lga" ? { lga: a.name } : { suburb: a.name };
  return { ok: true, query: { area, filters, sort: form.sort } };
}

// The search's own query parameters; any other parameter in the URL is left as it is.
const KEYS = [
  "area",
  "zones",
  "min_area",
  "max_area",
  "min_fsr",
  "min_height",
  "exclude",
  "min_lot",
  "station",
  "sort",
];
// Five decimals place a corner of the view within about a metre.
const coord = (n: number) => String(Math.round(n * 1e5) / 1e5);

/** The URL's query string with this search in it (the map's #zoom/lat/lng stays in the hash, untouched). */
export function paramsOf(form: FindForm, current = new URLSearchParams()): URLSearchParams {
  const p = new URLSearchParams(current);
  for (const k of KEYS) p.delete(k);
  const a = form.area;
  if (a) p.set("area", a.kind === "view" ? `bbox:${a.bbox.map(coord).join(",")}` : `${a.kind}:${a.name}`);
  const zones = zoneCodes(form.zones);
  if (zones.length > 0) p.set("zones", zones.join(","));
  const text: [string, string][] = [
    ["min_area", form.minArea],
    ["max_area", form.maxArea],
    ["min_fsr", form.minFsr],
    ["min_height", form.minHeight],
    ["station", form.station],
  ];
  for (const [k, v] of text) if (v.trim() !== "") p.set(k, v.trim());
  const exclude = EXCLUSIONS.filter((e) => form.exclude.includes(e));
  if (exclude.length > 0) p.set("exclude", exclude.join(","));
  if (form.meetsMinLot) p.set("min_lot", "1");
  if (form.sort !== "area") p.set("sort", form.sort);
  return p;
}

function areaFrom(text: string | null): AreaChoice | null {
  if (!text) return null;
  const cut = text.indexOf(":");
  const kind = text.slice(0, cut);
  const rest = text.slice(cut + 1).trim();
  if (cut < 0 || rest === "") return null;
  if (kind === "suburb" || kind === "lga") return { kind, name: rest };
  if (kind !== "bbox") return null;
  const b = rest.split(",").map(Number);
  if (b.length !== 4 || !b.every(Number.isFinite)) return null;
  return { kind: "view", bbox: b as BBox };
}

/** The search a link holds, or null when it holds none. Values are kept as written; queryOf says what is wrong. */
export function formFromParams(p: URLSearchParams): FindForm | null {
  if (!KEYS.some((k) => p.has(k))) return null;
  const sort = p.get("sort");
  return {
    area: areaFrom(p.get("area")),
    zones: zoneCodes(p.get("zones") ?? "").join(", "),
    minArea: p.get("min_area") ?? "",
    maxArea: p.get("max_area") ?? "",
    minFsr: p.get("min_fsr") ?? "",
    minHeight: p.get("min_height") ?? "",
    exclude: EXCLUSIONS.filter((e) => (p.get("exclude") ?? "").split(",").includes(e)),
    meetsMinLot: p.get("min_lot") === "1",
    station: p.get("station") ?? "",
    sort: SORTS.some((s) => s.id === sort) ? (sort as Sort) : "area",
  };
}
