// The constraint grammar of the offline planner: lot area, zones, FSR and height minimums, distance to a station and
// the overlays to leave out, as find_parcels takes them; and how a follow-up widens a search that ran.
import type { Reader } from "./reader.ts";
import { numberOf } from "./words.ts";

export type Overlay = "flood" | "bushfire" | "heritage";
export const OVERLAYS: readonly Overlay[] = ["flood", "bushfire", "heritage"];

/** The filters of find_parcels and score_sites, as the planner sends them. */
export interface Filters {
  min_area_m2?: number;
  max_area_m2?: number;
  zones?: string[];
  exclude?: Overlay[];
  fsr_min?: number;
  height_min_m?: number;
  station_within_m?: number;
}
export type FilterKey = keyof Filters;
export const FILTER_KEYS: readonly FilterKey[] = [
  "min_area_m2",
  "max_area_m2",
  "zones",
  "exclude",
  "fsr_min",
  "height_min_m",
  "station_within_m",
];

/** "Near a station" with no distance: the Low and Mid-Rise Housing policy's outer band around a station. */
export const NEAR_STATION_M = 800;
/** A minute's walk, for "a 10 minute walk from the station". */
const WALK_M_PER_MINUTE = 80;

/** What a follow-up takes away or adds back: filters to drop, zones to add, overlays allowed again. */
export interface Widening {
  drop: FilterKey[];
  addZones: boolean;
  include: Overlay[];
}

export interface Constraints {
  filters: Filters;
  widen: Widening;
  /** True when "near a station" had no distance and NEAR_STATION_M was taken. */
  stationDefault: boolean;
  /** The words before "station" ("Epping" in "near Epping station"), when they name a place. */
  stationPlace: string | null;
}

const NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
const AREA_UNIT = String.raw`\s*(?:m2|m²|m\^2|sqm|sq\.?\s?m(?:etres|eters)?|square\s+met(?:re|er)s?|(ha|hectares?))`;
const MORE = String.raw`(?:over|above|more\s+than|larger\s+than|bigger\s+than|at\s+least|greater\s+than|no\s+less\s+than|not\s+less\s+than|min(?:imum)?(?:\s+(?:lot\s+)?(?:size|area))?(?:\s+of)?|from|>=?)`;
const LESS = String.raw`(?:under|below|less\s+than|smaller\s+than|at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|max(?:imum)?(?:\s+(?:lot\s+)?(?:size|area))?(?:\s+of)?|<=?)`;
const OR_MORE = String.raw`(?:\s*\+|\s+or\s+(?:more|larger|bigger|above|over)|\s+and\s+(?:up|over|above|bigger|larger)|\s+plus|\s+min(?:imum)?)`;
const OR_LESS = String.raw`(?:\s+or\s+(?:less|smaller|under|below)|\s+and\s+(?:under|below|smaller)|\s+max(?:imum)?)`;

const UNIT_TO_M: Record<string, number> = { m: 1, metre: 1, metres: 1, meter: 1, meters: 1, km: 1000, kms: 1000 };
const DIST_UNIT = String.raw`\s*(m|metres|meters|metre|meter|km|kms|kilomet(?:re|er)s?)\b`;
const metres = (n: string, unit: string) => numberOf(n) * (UNIT_TO_M[unit.toLowerCase()] ?? 1000);

const STATION_WORDS = String.raw`(?:train|railway|rail|metro|light\s+rail|tram)`;
// Up to three words naming the station ("Epping", "North Sydney"), lazily, before "station".
// "the station", "Epping train station", or the mode alone: "close to the train", "walking distance to the metro" (a
// line is not a station: "near the train line" is left for the answer to name as not understood).
const STATION = String.raw`(?:the\s+|a\s+|an\s+|any\s+)?(?<name>(?:[\p{L}'’-]+\s+){0,3}?)(?:(?:${STATION_WORDS}\s+)?stations?\b|(?:${STATION_WORDS})s?(?:\s+stops?)?\b)`;
const NAMED_STATION = new RegExp(
  String.raw`\b(?<name>(?:\p{Lu}[\p{L}'’-]*\s+){1,3})(?:${STATION_WORDS}\s+)?[Ss]tation\b`,
  "u",
);
const STATION_RULES: { re: RegExp; dist: (m: RegExpExecArray) => number | null }[] = [
  {
    re: new RegExp(
      String.raw`\b(?:within|less\s+than|under|no\s+more\s+than|up\s+to)?\s*${NUM}${DIST_UNIT}\s+(?:walk(?:ing)?\s+)?(?:of|from|to|around)\s+${STATION}`,
      "iu",
    ),
    dist: (m) => metres(m[1] as string, m[2] as string),
  },
  {
    re: new RegExp(
      String.raw`\b(?:within\s+)?(?:an?\s+)?(\d{1,2})[\s-]*min(?:ute)?s?'?\s+walk(?:ing)?\s+(?:distance\s+)?(?:of|from|to)\s+${STATION}`,
      "iu",
    ),
    dist: (m) => Number(m[1]) * WALK_M_PER_MINUTE,
  },
  {
    re: new RegExp(String.raw`\b${STATION}\s+(?:within|less\s+than|under)\s+${NUM}${DIST_UNIT}`, "iu"),
    dist: (m) => metres(m[2] as string, m[3] as string),
  },
  {
    // "within 1.2 km", "widen the radius to 1 km": the one distance a lot search filters by is a station's.
    re: new RegExp(
      String.raw`\b(?:(?:widen|expand|extend|increase|change|set|raise|reduce|shrink|tighten|narrow|make)\s+(?:it\s+|the\s+(?:radius|distance|walk|search)\s+)?to|within|radius\s+(?:of\s+)?)\s*${NUM}${DIST_UNIT}()`,
      "iu",
    ),
    dist: (m) => metres(m[1] as string, m[2] as string),
  },
  {
    re: new RegExp(
      String.raw`\b(?:near(?:by)?|close\s+to|next\s+to|by|beside|around|walk(?:ing|able)\s+(?:distance\s+)?(?:of|from|to)|within\s+walking\s+distance\s+(?:of|from|to)|handy\s+to)\s+${STATION}`,
      "iu",
    ),
    dist: () => null,
  },
];

const WORD_NOT_PLACE = new Set([
  "the",
  "a",
  "an",
  "any",
  "nearest",
  "closest",
  "local",
  "my",
  "our",
  "of",
  "to",
  "from",
]);

function station(r: Reader, c: Constraints): void {
  for (const rule of STATION_RULES) {
    const m = r.takeOne(rule.re);
    if (!m) continue;
    const d = rule.dist(m);
    c.filters.station_within_m = d ?? NEAR_STATION_M;
    c.stationDefault = d === null;
    const name = (m.groups?.name ?? "")
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "" && !WORD_NOT_PLACE.has(w.toLowerCase()));
    c.stationPlace = name.length > 0 ? name.join(" ") : null;
    // "Central station lots within 400 m": the distance and the station's name apart.
    c.stationPlace ??= r.takeOne(NAMED_STATION)?.groups?.name?.trim() ?? null;
    return;
  }
}

const HAZARD = String.raw`(?:flood(?:ing|s|ed)?(?:[\s-]+(?:prone|affected|planning(?:\s+areas?)?|zones?|risk|areas?|land|liable))?|bush\s?fires?(?:[\s-]+(?:prone|risk|areas?|land|zones?))?|fire[\s-]prone(?:\s+land)?|heritage(?:[\s-]+(?:items?|areas?|listed|listings?|listing|conservation(?:\s+areas?)?|constraints?))?|conservation\s+areas?|hazards?|overlays?|constraints?)`;
const HAZARDS = String.raw`${HAZARD}(?:\s*(?:,|\/|&|\bor\b|\band\b|\bnor\b)\s*(?:any\s+|a\s+)?${HAZARD})*`;

function overlaysIn(s: string): Overlay[] {
  const out = new Set<Overlay>();
  const t = s.toLowerCase();
  if (/flood/.test(t)) out.add("flood");
  if (/fire/.test(t)) out.add("bushfire");
  if (/heritage|conservation/.test(t)) out.add("heritage");
  if (/hazard/.test(t)) for (const k of ["flood", "bushfire"] as const) out.add(k);
  if (/overlay|constraint/.test(t)) for (const k of OVERLAYS) out.add(k);
  return OVERLAYS.filter((k) => out.has(k));
}

const DROP_KEYS: Record<string, FilterKey[]> = {
  zone: ["zones"],
  size: ["min_area_m2", "max_area_m2"],
  area: ["min_area_m2", "max_area_m2"],
  minimum: ["min_area_m2"],
  maximum: ["max_area_m2"],
  fsr: ["fsr_min"],
  height: ["height_min_m"],
  station: ["station_within_m"],
  distance: ["station_within_m"],
};

function widening(r: Reader, c: Constraints): void {
  // "any zone", "regardless of size", "drop the station filter", "remove the FSR limit".
  const drop = String.raw`\b(?:(?:any|all|regardless\s+of(?:\s+the)?|whatever)\s+(zon\w*|size|area|fsr|height|distance)s?|(?:drop|remove|ignore|forget|clear|lose|without)\s+(?:the\s+)?(zon\w*|size|area|fsr|height|station|distance|minimum|maximum|flood|bushfire|heritage|hazard|overlay)s?\s+(?:filter|limit|minimum|maximum|requirement|restriction|constraint|condition)s?|no\s+(minimum|maximum|min|max)\s+(?:lot\s+)?(?:size|area))\b`;
  for (const m of r.take(new RegExp(drop, "i"))) {
    const word = (m[1] ?? m[2] ?? m[3] ?? "").toLowerCase();
    const key = word.startsWith("zon") ? "zone" : word === "min" ? "minimum" : word === "max" ? "maximum" : word;
    const overlays = overlaysIn(word);
    if (overlays.length > 0) c.widen.include.push(...overlays);
    else c.widen.drop.push(...(DROP_KEYS[key] ?? []));
  }
  const include = [
    String.raw`\b(?:include|including|allow|allowing|add\s+back|bring\s+back|put\s+back|keep)\s+(?:the\s+)?(?:ones\s+|lots\s+)?(?:with\s+|in\s+|on\s+|under\s+)?(${HAZARDS})(?:\s+(?:ones|lots|sites))?(?:\s+(?:too|as\s+well|again))?`,
    String.raw`\b(?:even\s+)?(?:with|in|on)\s+(${HAZARDS})\s+(?:too|as\s+well)\b`,
    String.raw`\b(${HAZARDS})\s+(?:is|are)\s+(?:fine|ok|okay|allowed)\b`,
  ];
  for (const re of include)
    for (const m of r.take(new RegExp(re, "i"))) c.widen.include.push(...overlaysIn(m[1] ?? ""));
}

function exclusions(r: Reader, c: Constraints): void {
  const not = String.raw`\b(?:(?:aren'?t|isn'?t|are\s+not|is\s+not|not)\s+(?:in\s+|on\s+|under\s+|within\s+|affected\s+by\s+|subject\s+to\s+|near\s+)?|without|with\s+no|no|not\s+(?:in|on|under|within|affected\s+by|subject\s+to|near)|not|free\s+(?:of|from)|clear\s+of|outside(?:\s+of)?|avoid(?:ing|s)?|exclud(?:e|es|ing)|except(?:\s+for)?|minus|away\s+from|skip(?:ping)?|leave\s+out|leaving\s+out|but\s+not|non[\s-]?|unaffected\s+by|drop|remove|hide|hiding|filter\s+out|take\s+out|get\s+rid\s+of|lose|ditch)\s*(?:any\s+|a\s+|the\s+|an\s+|both\s+|all\s+)?(?:known\s+)?(${HAZARDS})`;
  const free = String.raw`\b(${HAZARDS})[\s-]+free\b`;
  const out = new Set<Overlay>(c.filters.exclude ?? []);
  for (const re of [not, free])
    for (const m of r.take(new RegExp(re, "i"))) for (const k of overlaysIn(m[1] ?? "")) out.add(k);
  if (out.size > 0) c.filters.exclude = OVERLAYS.filter((k) => out.has(k));
}

const ZONE_CODE = /\b(R[1-5]|RU[1-6]|B[1-8]|E[1-5]|MU1|RE[12]|IN[1-4]|SP[1-5]|C[1-4]|W[1-4])\b/gi;
const ZONE_WORDS: [RegExp, string[]][] = [
  [/\blow[\s-]density(?:\s+residential)?\b/gi, ["R2"]],
  [/\bmedium[\s-]density(?:\s+residential)?\b/gi, ["R3"]],
  [/\bhigh[\s-]density(?:\s+residential)?\b/gi, ["R4"]],
  [/\bgeneral\s+residential\b/gi, ["R1"]],
  [/\blarge[\s-]lot\s+residential\b/gi, ["R5"]],
  [/\bmixed[\s-]use\b/gi, ["MU1"]],
  [/\blocal\s+centres?\b/gi, ["E1"]],
  [/\bcommercial\s+centres?\b/gi, ["E2"]],
  [/\bresidential(?:[\s-]zon\w+)?\b/gi, ["R1", "R2", "R3", "R4", "R5"]],
];

function zones(r: Reader, c: Constraints): void {
  const found: string[] = [];
  for (const [re, codes] of ZONE_WORDS) if (r.take(re).length > 0) found.push(...codes);
  for (const m of r.take(ZONE_CODE)) found.push((m[1] as string).toUpperCase());
  if (found.length === 0) return;
  c.filters.zones = [...new Set(found)];
  // "R2 too", "also R4", "add R3": the zones join the last search's instead of replacing them.
  if (r.takeOne(/\b(?:also|too|as\s+well|add(?:ing)?|include|including|plus)\b/i)) c.widen.addZones = true;
}

const RATIO = String.raw`(\d+(?:\.\d+)?)(?:\s*:\s*1)?`;
function fsr(r: Reader, c: Constraints): void {
  const name = String.raw`(?:(?:min(?:imum)?\s+)?(?:fsr|floor[\s-]space[\s-]ratio))`;
  const rules = [
    String.raw`\b${name}\s*(?:limit\s+|control\s+)?(?:of\s+|is\s+|:\s*)?(?:at\s+least|over|above|min(?:imum)?|>=?|greater\s+than|more\s+than|from|of)?\s*(?:of\s+)?${RATIO}(?:\s*\+|\s+or\s+(?:more|higher|above|better)|\s+and\s+(?:above|up|over)|\s+min(?:imum)?)?`,
    String.raw`\b(?:min(?:imum)?|at\s+least)\s+(?:an?\s+)?${name}\s+(?:of\s+)?${RATIO}`,
    String.raw`\b${RATIO}\s*\+?\s*${name}`,
  ];
  for (const re of rules) {
    const m = r.takeOne(new RegExp(re, "i"));
    if (m) c.filters.fsr_min = Number(m[1]);
    if (m) return;
  }
}

function height(r: Reader, c: Constraints): void {
  const name = String.raw`(?:(?:max(?:imum)?\s+|min(?:imum)?\s+)?(?:building\s+)?height(?:\s+(?:limit|control))?|hob)`;
  const unit = String.raw`\s*(?:m|metres|meters)\b`;
  const rules = [
    String.raw`\b${name}\s*(?:of\s+|is\s+|:\s*)?(?:at\s+least|over|above|min(?:imum)?|>=?|greater\s+than|more\s+than|from|of)?\s*(?:of\s+)?(\d+(?:\.\d+)?)${unit}(?:\s*\+|\s+or\s+(?:more|higher|above|taller)|\s+and\s+(?:above|up|over))?`,
    String.raw`\b(?:min(?:imum)?|at\s+least|over|above)\s+(?:an?\s+)?(\d+(?:\.\d+)?)${unit}\s+(?:${name}|tall|high)`,
    String.raw`\b(\d+(?:\.\d+)?)${unit}\s*\+?\s+(?:or\s+(?:taller|higher|more)\s+)?${name}`,
    // "lots that allow 12 m or more": metres alone (not m²) with "or more" can only be the height control.
    String.raw`\b(?:(?:allow(?:s|ing)?|permit(?:s|ting)?)\s+(?:buildings?\s+(?:of\s+)?)?)?(\d+(?:\.\d+)?)${unit}\s*(?:\+|or\s+(?:more|higher|taller|above))(?!\s+(?:from|of|to|away))`,
    String.raw`\b(?:allow(?:s|ing)?|permit(?:s|ting)?)\s+(?:buildings?\s+(?:of\s+)?)?(?:at\s+least\s+)?(\d+(?:\.\d+)?)${unit}`,
  ];
  for (const re of rules) {
    const m = r.takeOne(new RegExp(re, "i"));
    if (m) c.filters.height_min_m = Number(m[1]);
    if (m) return;
  }
}

function area(r: Reader, c: Constraints): void {
  const size = (n: string, ha: string | undefined) => numberOf(n) * (ha ? 10_000 : 1);
  const between = r.takeOne(
    new RegExp(String.raw`\b(?:between|from)?\s*${NUM}(?:${AREA_UNIT})?\s*(?:and|to|-|–)\s*${NUM}${AREA_UNIT}`, "i"),
  );
  if (between) {
    c.filters.min_area_m2 = size(between[1] as string, between[2] ?? between[4]);
    c.filters.max_area_m2 = size(between[3] as string, between[4]);
    return;
  }
  const rules: [RegExp, "min_area_m2" | "max_area_m2"][] = [
    [new RegExp(String.raw`\b${MORE}\s*${NUM}${AREA_UNIT}`, "i"), "min_area_m2"],
    [new RegExp(String.raw`\b${LESS}\s*${NUM}${AREA_UNIT}`, "i"), "max_area_m2"],
    [new RegExp(String.raw`\b${NUM}${AREA_UNIT}${OR_MORE}`, "i"), "min_area_m2"],
    [new RegExp(String.raw`\b${NUM}${AREA_UNIT}${OR_LESS}`, "i"), "max_area_m2"],
    // A bare number of square metres after a comparison ("lots over 700"): three digits at least, no other unit.
    [
      new RegExp(String.raw`\b${MORE}\s*(\d[\d,]{2,})()(?!\s*(?:m\b|metres|km|%|:|storeys|floors))`, "i"),
      "min_area_m2",
    ],
    [
      new RegExp(String.raw`\b${LESS}\s*(\d[\d,]{2,})()(?!\s*(?:m\b|metres|km|%|:|storeys|floors))`, "i"),
      "max_area_m2",
    ],
  ];
  for (const [re, key] of rules) {
    if (c.filters[key] !== undefined) continue;
    const m = r.takeOne(re);
    if (m) c.filters[key] = size(m[1] as string, m[2] || undefined);
  }
  // A lone "700 m2 lots" reads as at least that size.
  if (c.filters.min_area_m2 === undefined && c.filters.max_area_m2 === undefined) {
    const m = r.takeOne(new RegExp(String.raw`\b${NUM}${AREA_UNIT}`, "i"));
    if (m) c.filters.min_area_m2 = size(m[1] as string, m[2]);
  }
}

/** Every constraint the question states, each rule taking its words from the reader. */
export function readConstraints(r: Reader): Constraints {
  const c: Constraints = {
    filters: {},
    widen: { drop: [], addZones: false, include: [] },
    stationDefault: false,
    stationPlace: null,
  };
  // Most specific first: a station's distance and FSR or height figures are not lot areas.
  station(r, c);
  widening(r, c);
  exclusions(r, c);
  fsr(r, c);
  height(r, c);
  area(r, c);
  zones(r, c);
  return c;
}
