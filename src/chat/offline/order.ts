// Order and count in a question: "sort those by FSR", "closest to the station first", "the top 3", "the largest 5",
// "the largest one". A count with no order of its own keeps the order of the results it picks from.
import type { Reader } from "./reader.ts";
import { COUNT, countOf } from "./words.ts";

export type Sort = "area" | "fsr" | "height" | "station" | "value";

export interface Order {
  sort: Sort | null;
  count: number | null;
  /** The station named in "closest to Epping station". */
  stationPlace: string | null;
}

// The station may be named ("closest to Epping station"): the name is the place the lots are in.
const STATION = String.raw`(?:(?:to|from)\s+)?(?:the\s+|a\s+|any\s+)?(?<place>(?:\p{Lu}[\p{L}'’-]+\s+){0,2})(?:train\s+|railway\s+|rail\s+|metro\s+)?station`;
const SORT_KEYS: [RegExp, Sort][] = [
  [/^(?:area|size|lot\s+size|land\s+size)/i, "area"],
  [/^(?:fsr|floor[\s-]space[\s-]ratio)/i, "fsr"],
  [/^(?:height|building\s+height|height\s+limit)/i, "height"],
  [/^(?:distance|station|proximity|closeness|nearness|walk|closest|nearest)/i, "station"],
  [/^(?:value|margin|residual|rlv|worth)/i, "value"],
];

/** The capitalised name before "station", without the kind of station; null when none. */
function namedStation(m: RegExpExecArray): string | null {
  const words = (m.groups?.place ?? "")
    .split(/\s+/)
    .filter((w) => w !== "" && !/^(?:train|railway|rail|metro|light)$/i.test(w));
  return words.length > 0 && /^\p{Lu}/u.test(words[0] as string) ? words.join(" ") : null;
}

function sortOf(key: string): Sort | null {
  const k = key.trim().replace(/^the\s+/i, "");
  return SORT_KEYS.find(([re]) => re.test(k))?.[1] ?? null;
}

/** "sort by", "largest first", "closest to the station", counts: taken before any filter reads the words. */
export function readOrder(r: Reader): Order {
  const o: Order = { sort: null, count: null, stationPlace: null };
  const by = r.takeOne(
    new RegExp(
      String.raw`\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?|arrange(?:d)?|list(?:ed)?|show(?:n)?|put)\s+(?:(?:them|those|these|it|the\s+results|the\s+lots|results)\s+)?(?:by|on)\s+((?:area|size|lot\s+size|land\s+size|fsr|floor[\s-]space[\s-]ratio|height(?:\s+limit)?|building\s+height|distance|proximity|closeness|closest|nearest|station|(?:the\s+)?(?:value|margin|residual(?:\s+land\s+value)?|rlv|worth))(?:\s+${STATION})?(?:\s+distance)?)(?:\s*,?\s*(?:largest|biggest|highest|tallest|closest|nearest|descending|ascending)(?:\s+first)?)?`,
      "iu",
    ),
  );
  if (by) o.sort = sortOf(by[1] as string);
  if (by) o.stationPlace = namedStation(by);
  // "the top three by FSR", "largest to smallest", "nearest to farthest".
  const bare = o.sort
    ? null
    : r.takeOne(
        /\bby\s+(area|size|lot\s+size|fsr|floor[\s-]space[\s-]ratio|height(?:\s+limit)?|distance\s+to\s+(?:the\s+|a\s+)?station|(?:the\s+)?(?:value|margin|residual(?:\s+land\s+value)?|rlv))\b/i,
      );
  if (bare) o.sort = sortOf(bare[1] as string);
  if (!o.sort && r.takeOne(/\b(?:from\s+)?(?:largest|biggest)\s+to\s+smallest\b/i)) o.sort = "area";
  if (!o.sort && r.takeOne(/\b(?:from\s+)?(?:closest|nearest)\s+to\s+(?:furthest|farthest)\b/i)) o.sort = "station";
  const firsts: [RegExp, Sort][] = [
    [/\b(?:largest|biggest|widest)(?:\s+(?:lots?|sites?|ones?))?\s+first\b/i, "area"],
    [/\b(?:highest|largest|biggest|best)\s+(?:fsr|floor[\s-]space[\s-]ratio)(?:\s+first)?\b/i, "fsr"],
    [/\b(?:tallest|highest)(?:\s+(?:building\s+)?height(?:\s+limit)?)?\s+first\b/i, "height"],
    [/\b(?:highest|tallest|largest)\s+(?:building\s+)?height(?:\s+limits?)?\b/i, "height"],
    [new RegExp(String.raw`\b(?:closest|nearest)(?:\s+${STATION})?\s+first\b`, "iu"), "station"],
    // "best margin first", "most valuable first", "highest residual land value": the value sort.
    [
      /\b(?:highest|largest|biggest|best|greatest)\s+(?:margins?|values?|rlv|residual(?:\s+land\s+values?)?)(?:\s+first)?\b/i,
      "value",
    ],
    [/\bmost\s+valuable(?:\s+(?:lots?|sites?|ones?))?(?:\s+first)?\b/i, "value"],
  ];
  for (const [re, sort] of firsts) if (!o.sort && r.takeOne(re)) o.sort = sort;
  // "the 3 closest to the station", "which is nearest the station", "closest 2 to a station".
  const closest = r.takeOne(
    new RegExp(
      String.raw`\b(?:the\s+)?(?:${COUNT}\s+)?(?:closest|nearest)(?:\s+${COUNT})?(\s+(?:ones|lots|sites|parcels|blocks))?(?:\s+(?:one|lot|site|parcel|block))?\s+(?:to\s+)?${STATION}s?`,
      "iu",
    ),
  );
  if (closest) {
    o.sort = "station";
    o.stationPlace = namedStation(closest);
    const n = closest[1] ?? closest[2];
    // "closest to the station" names one lot unless it says how many or speaks of several.
    const several = closest[3] || /\b(?:lots|sites|parcels|blocks|ones|properties)\b/i.test(r.text);
    o.count = n ? countOf(n) : several ? null : 1;
  }
  const counted: [RegExp, Sort | null][] = [
    [new RegExp(String.raw`\b(?:the\s+)?(?:top|first|best|leading)\s+${COUNT}\b`, "i"), null],
    [new RegExp(String.raw`\b(?:the\s+)?(?:largest|biggest)\s+${COUNT}\b`, "i"), "area"],
    [new RegExp(String.raw`\b(?:the\s+)?${COUNT}\s+(?:largest|biggest)\b`, "i"), "area"],
    [
      new RegExp(
        String.raw`\b(?:the\s+)?highest[\s-]fsr\s+${COUNT}\b|\b(?:the\s+)?${COUNT}\s+(?:with\s+the\s+)?highest[\s-]fsr\b`,
        "i",
      ),
      "fsr",
    ],
    [new RegExp(String.raw`\b(?:the\s+)?${COUNT}\s+(?:tallest|highest)\b`, "i"), "height"],
    [
      /\bthe\s+(?:largest|biggest)(?:\s+(?:one|lot|site|parcel|block)\b|(?=\s+(?:of|in|among)\s+(?:them|those|these))|\s*$|(?=\s*[?.!]))/i,
      "area",
    ],
    [/\bthe\s+(?:first|top)(?:\s+(?:one|lot|site|parcel|block)\b|\s*$|(?=\s*[?.!]))/i, null],
  ];
  for (const [re, sort] of counted) {
    if (o.count !== null) break;
    const m = r.takeOne(re);
    if (!m) continue;
    const n = m.slice(1).find((g) => g !== undefined);
    o.count = n ? countOf(n) : 1;
    if (sort) o.sort = o.sort ?? sort;
  }
  // "all 16" or "those 5" of the last results.
  if (o.count === null) {
    const all = r.takeOne(
      new RegExp(String.raw`\b(?:all|those|these|the)\s+${COUNT}\b(?!\s*(?:m\b|m2|sqm|metres|km))`, "i"),
    );
    if (all) o.count = countOf(all[1] as string);
  }
  // "5 lots", "3 R2 sites": how many to show or score, not an order.
  if (o.count === null) {
    const m = r.takeOne(
      new RegExp(
        String.raw`\b${COUNT}(?=\s+(?:(?!m2\b|m²|sqm|sq\b|square\b|ha\b|hectares?\b|m\b|metres\b|km\b)[\p{L}\d-]+\s+){0,3}(?:lots|sites|parcels|blocks|properties|plots|candidates)\b)`,
        "iu",
      ),
    );
    if (m) o.count = countOf(m[1] as string);
  }
  return o;
}
