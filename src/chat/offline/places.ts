// Where a question points: a lot id, one of Greater Sydney's suburbs (by name, in any case where unambiguous), an
// unknown capitalised place for the geocoder to refuse by name, the map view, or "there" (the last area).
import type { Reader } from "./reader.ts";
import { STATION_NAMES } from "./station-names.ts";
import { SUBURB_NAMES } from "./suburb-names.ts";

const LOT_SLASH = /\b\d+[A-Z]?\s*\/\s*\w*\s*\/\s*[A-Z]{1,3}\s*\d+\b/i;
const LOT_WORDS =
  /\blot\s+\w+(?:\s+sec(?:tion)?\s+\w+)?\s+(?:in\s+|on\s+)?(?:DP|SP|deposited plan|strata plan)\s*\d+\b/i;

export function readLot(r: Reader): string | null {
  return (r.takeOne(LOT_SLASH) ?? r.takeOne(LOT_WORDS))?.[0].trim() ?? null;
}

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/['’.]/g, "")
    .replace(/\bsaint\b/g, "st")
    .replace(/\bmount\b/g, "mt")
    .replace(/\s+/g, " ")
    .trim();

// Names that are everyday words in lower case ("prospect", "waterfall"): recognised only when capitalised.
const EVERYDAY = new Set(
  "prospect vineyard waterfall ruse gables miller richards nelson botany como henley concord angus clyde camellia".split(
    " ",
  ),
);

const BY_KEY = new Map(SUBURB_NAMES.map((n) => [key(n), n]));
// Longest first, so "North Epping" wins over "Epping" and "St Ives Chase" over "St Ives".
const PATTERN = new RegExp(
  String.raw`\b(${[...BY_KEY.keys()]
    .sort((a, b) => b.length - a.length)
    .map((k) =>
      k
        .replace(/\bst\b/g, "(?:st\\.?|saint)")
        .replace(/\bmt\b/g, "(?:mt\\.?|mount)")
        .replace(/ /g, "[\\s-]+"),
    )
    .join("|")})\b`,
  "gi",
);

/** The suburb a name means, in the pack's spelling; null when the name is not a Greater Sydney suburb. */
export function suburbNamed(name: string): string | null {
  return BY_KEY.get(key(name)) ?? null;
}

const STATION_BY_KEY = new Map(STATION_NAMES.map((n) => [key(n), n]));

/** The station a name means, in the transport pack's spelling; null when no station has that name. */
export function stationNamed(name: string): string | null {
  return STATION_BY_KEY.get(key(name)) ?? null;
}

const NOT_PLACES = new Set(["Lot", "DP", "SP", "The", "My", "This", "That", "These", "View", "Map", "Station"]);
const CAPITALISED =
  /\b(?:in|at|near|around|of|for|about|across)\s+((?:St\.?\s+|Mt\.?\s+)?[A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)*)/gu;

/** A known suburb anywhere in the question, else a capitalised name after "in", "near", ...; taken. */
export function readPlace(r: Reader): string | null {
  for (const m of r.rest().matchAll(PATTERN)) {
    const text = m[1] as string;
    const lower = text === text.toLowerCase();
    if (lower && EVERYDAY.has(key(text))) continue;
    // "Greater Sydney" is the region, not the suburb Sydney.
    if (/\bgreater\s+$/i.test(r.rest().slice(0, m.index))) continue;
    const name = suburbNamed(text);
    if (name && r.takeOne(new RegExp(String.raw`\b${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\b`))) return name;
  }
  for (const m of r.rest().matchAll(CAPITALISED)) {
    const words = (m[1] as string).split(/\s+/).filter((w) => !NOT_PLACES.has(w));
    if (words.length === 0) continue;
    const place = words.join(" ");
    r.takeOne(new RegExp(String.raw`\b${place.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\b`));
    return place;
  }
  return null;
}

/** "in view", "on the map", "here", "visible", "this area": the map view. */
export const IN_VIEW =
  /\b(?:in\s+(?:the\s+)?view|on\s+(?:the\s+)?(?:map|screen)|visible|viewport|current\s+view|this\s+area|here)\b/i;
/** "there", "that area": the last area the conversation was about ("is there any ..." is not a place). */
export const THERE = /(?<!\b(?:is|are|was|were)\s+)\bthere\b|\bthat\s+(?:area|suburb|place|lot|parcel|site)\b/i;
/** "it": the last lot or area, or the last search when the question changes one ("narrow it down to R2"). */
export const IT = /\bit\b/i;
