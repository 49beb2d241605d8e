// find_parcels: parcels in a suburb or box filtered by area, zone, controls, station distance and overlays, bounded.
import { type VisiblePacks, wholePacks } from "../../packs/open-pack.ts";
import { tool } from "ai";
import { z } from "zod";
import { featureBBox, type BBox } from "../../geo/bbox.ts";
import { NotFoundError, UnprocessableError } from "../../errors.ts";
import { featureCentroid } from "../../geo/centroid.ts";
import { PARCELS } from "../../packs/spatial.ts";
import { ReadBudget } from "../../packs/paged/index.ts";
import type { Layer, Pack } from "../../packs/types.ts";
import { type SearchOutcome, searchSites } from "../../search/engine.ts";
import { openGate, type WorkGate } from "../../search/gate.ts";
import {
  type Excludable,
  MAX_RANGES,
  MAX_SEARCH_BYTES,
  MAX_SEARCH_LOTS,
  RESULT_RANGES,
  type SearchArea,
  type SearchFilters,
  type SearchQuery,
  type SiteResult,
} from "../../search/query.ts";
import { refFeatures } from "../../search/refs.ts";
import { EXCLUDABLE, SITE_SORTS } from "../../routes/schemas/limits.ts";
import type { AssumptionsDocument } from "../../value/assumptions.ts";
import { defaultsDocument } from "../../value/store.ts";
import {
  addressOf,
  anySynthetic,
  areaFields,
  parcelCollection,
  stationCircle,
  type AreaInput,
  type ParcelRef,
} from "./tool-areas.ts";
import { bounded, type ToolContext } from "./context.ts";
import { r1, refusal, roundBox, unionBox, type ToolRun } from "./map.ts";

/** Parcels listed to the model; the map gets up to `limit`. */
export const MODEL_LIST = 10;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** The farthest a lot may be from a station in a filter: beyond a few kilometres it filters nothing. */
export const MAX_STATION_M = 5_000;

/** The filters of every tool that picks parcels of an area. */
export const filterFields = {
  min_area_m2: z.number().min(0).max(1e7).optional().describe("Smallest lot area in square metres"),
  max_area_m2: z.number().min(0).max(1e7).optional().describe("Largest lot area in square metres"),
  zones: z
    .array(z.string().min(1).max(10))
    .max(20)
    .optional()
    .describe("Zone codes to keep, e.g. ['R2', 'R3'] (the lot's main zone: the one over most of it)"),
  hazard_free: z.boolean().optional().describe("Keep only lots with no flood or bushfire overlay at all"),
  exclude: z
    .array(z.enum(EXCLUDABLE))
    .max(EXCLUDABLE.length)
    .optional()
    .describe(
      "Overlays to leave out: lots touching any of them are dropped, e.g. ['heritage'] or ['flood', 'bushfire']",
    ),
  fsr_min: z.number().min(0).max(50).optional().describe("Smallest floor space ratio, e.g. 1 for 1:1"),
  height_min_m: z.number().min(0).max(500).optional().describe("Smallest maximum building height in metres"),
  station_within_m: z
    .number()
    .min(1)
    .max(MAX_STATION_M)
    .optional()
    .describe("Keep lots within this many metres of a railway, metro or light rail station (800 is a walk)"),
};
export type ParcelFilters = z.infer<z.ZodObject<typeof filterFields>>;

const inputSchema = z.object({
  ...areaFields,
  ...filterFields,
  sort: z
    .enum(SITE_SORTS)
    .optional()
    .describe(
      "area: largest first (the default); fsr: highest FSR first; height: tallest height limit first; station: nearest a station first; value: largest margin of residual land value over the as-is value first, on the organisation's assumptions (the list carries no value figures: scoring gives them)",
    ),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
});
export type FindParcelsInput = z.infer<typeof inputSchema>;

export type Match = ParcelRef & { zone: string | null; station: { name: string; distance_m: number } | null };
export type ParcelSort = (typeof SITE_SORTS)[number];

/** How each order is said in a tool's answer. */
export const ORDER_TEXT = {
  area: "largest first",
  fsr: "highest FSR first",
  height: "tallest height limit first",
  station: "nearest a station first",
  value: "largest margin over the as-is value first, on the organisation's assumptions",
} as const satisfies Record<ParcelSort, string>;

export interface Matches {
  area: { label: string; bbox: BBox };
  /** Largest first, at most MAX_LIMIT. */
  matches: Match[];
  /** Every lot of the area passing the filters. */
  matched: number;
  scanned: number;
  range: [number, number] | null;
}

function cleanFilters(f: ParcelFilters): ParcelFilters {
  const out: ParcelFilters = {};
  if (f.min_area_m2 !== undefined) out.min_area_m2 = f.min_area_m2;
  if (f.max_area_m2 !== undefined) out.max_area_m2 = f.max_area_m2;
  if (f.zones && f.zones.length > 0) out.zones = [...new Set(f.zones.map((z) => z.trim().toUpperCase()))];
  if (f.hazard_free) out.hazard_free = true;
  if (f.exclude && f.exclude.length > 0) out.exclude = EXCLUDABLE.filter((k) => f.exclude?.includes(k));
  if (f.fsr_min !== undefined) out.fsr_min = f.fsr_min;
  if (f.height_min_m !== undefined) out.height_min_m = f.height_min_m;
  if (f.station_within_m !== undefined) out.station_within_m = f.station_within_m;
  return out;
}

// Around a named station its distance is the area's radius, named in the area, not a filter besides.
function shownFilters(input: AreaInput & ParcelFilters): ParcelFilters {
  const f = cleanFilters(input);
  if (input.station) delete f.station_within_m;
  return f;
}

// hazard_free (kept for models that learnt it) is flood and bushfire; exclude names any overlay.
function excluded(f: ParcelFilters): Excludable[] {
  const out = new Set<Excludable>(f.exclude ?? []);
  if (f.hazard_free) for (const k of ["flood", "bushfire"] as const) out.add(k);
  return EXCLUDABLE.filter((k) => out.has(k));
}

/** The site search's query for a tool's area and filters, or why there is none. */
export function toolSearch(
  input: AreaInput & ParcelFilters & { sort?: ParcelSort },
  fallback: BBox | null,
  limit: number,
  packs: readonly Pack[] = [],
): (SearchQuery & { label?: string }) | string {
  if (input.station && input.station.trim() !== "") {
    const circle = stationCircle(packs, input.station, input.station_within_m);
    if (typeof circle === "string") return circle;
    return { ...searchOf({ polygon: circle.polygon }, input, limit), label: circle.label };
  }
  const box = (input.bbox as BBox | undefined) ?? fallback;
  const area: SearchArea | null =
    input.suburb && input.suburb.trim() !== "" ? { suburb: input.suburb.trim() } : box ? { bbox: box } : null;
  if (!area) return "Name a suburb or give a bbox: the request carried no map view to fall back on.";
  return searchOf(area, input, limit);
}

function searchOf(area: SearchArea, input: ParcelFilters & { sort?: ParcelSort }, limit: number): SearchQuery {
  const f = cleanFilters(input);
  const filters: SearchFilters = {
    ...(f.zones ? { zones: f.zones } : {}),
    ...(f.min_area_m2 !== undefined || f.max_area_m2 !== undefined
      ? {
          area_m2: {
            ...(f.min_area_m2 !== undefined ? { min: f.min_area_m2 } : {}),
            ...(f.max_area_m2 !== undefined ? { max: f.max_area_m2 } : {}),
          },
        }
      : {}),
    ...(excluded(f).length > 0 ? { exclude: excluded(f) } : {}),
    ...(f.fsr_min !== undefined ? { fsr_min: f.fsr_min } : {}),
    ...(f.height_min_m !== undefined ? { height_min_m: f.height_min_m } : {}),
    ...(f.station_within_m !== undefined ? { station_within_m: f.station_within_m } : {}),
  };
  return { area, filters, sort: input.sort ?? "area", limit };
}

/** Every lot of the area passing the filters, counted, and the largest `limit` of them: the site search's engine. */
export async function matchParcels(
  packs: VisiblePacks,
  input: AreaInput & ParcelFilters & { sort?: ParcelSort },
  fallback: BBox | null,
  limit = MAX_LIMIT,
  gate: WorkGate = openGate,
  /** The organisation's current assumptions, read only for a value sort; absent: the shipped defaults, as the route. */
  assumptions?: () => Promise<AssumptionsDocument>,
): Promise<Matches | string> {
  const asked = toolSearch(input, fallback, limit, wholePacks(packs));
  if (typeof asked === "string") return asked;
  const query =
    asked.sort === "value" ? { ...asked, assumptions: assumptions ? await assumptions() : defaultsDocument() } : asked;
  let found: SearchOutcome;
  let features: { pack: Pack; index: number }[];
  // One read budget for the search and its results' pages: a request stays within the subrequests a Worker allows.
  const budget = new ReadBudget({ lots: MAX_SEARCH_LOTS, bytes: MAX_SEARCH_BYTES, ranges: MAX_RANGES });
  try {
    // The same per-organisation slots as POST /sites/search: a chat cannot add a third search at once.
    const run = await gate(() => searchSites(packs, query, { budget, reserveRanges: RESULT_RANGES }));
    if (!run.ok)
      return `Two searches of this organisation are already running: try again in ${run.retryAfter} s or narrow the area.`;
    found = run.value;
    features = await refFeatures(found.refs, budget);
  } catch (err) {
    // An unknown suburb or an area too large is a sentence for the model, not a failed question.
    if (err instanceof NotFoundError || err instanceof UnprocessableError) return err.detail;
    throw err;
  }
  const label = query.label ?? ("bbox" in query.area ? (input.bbox ? "the given box" : "the map view") : found.label);
  const matches = features.map(({ pack, index }, k): Match => {
    const layer = pack.layers.get(PARCELS) as Layer;
    const r = found.results[k] as SiteResult;
    return {
      pack,
      layer,
      index,
      lotId: r.lot_id,
      props: layer.props(index),
      centroid: featureCentroid(layer, index),
      areaM2: r.area_m2,
      zone: r.zone,
      station: r.station,
    };
  });
  return {
    area: { label, bbox: found.areaBbox },
    matches,
    matched: found.count,
    scanned: found.work.lotsTested,
    range: found.areaRange,
  };
}

export interface FindParcelsOutput {
  area: string;
  bbox: BBox;
  filters: ParcelFilters;
  matched: number;
  shown: number;
  scanned: number;
  /** The smallest and largest lot of the area, whatever the filters (when every lot was looked at). */
  area_range_m2: [number, number] | null;
  order: (typeof ORDER_TEXT)[ParcelSort];
  parcels: {
    lot_id: string | null;
    area_m2: number;
    zone: string | null;
    address: string | null;
    station: { name: string; distance_m: number } | null;
  }[];
  demo_data: boolean;
}

export async function findParcels(
  packs: VisiblePacks,
  input: FindParcelsInput,
  fallback: BBox | null,
  gate: WorkGate = openGate,
  assumptions?: () => Promise<AssumptionsDocument>,
): Promise<ToolRun<FindParcelsOutput | { error: string }>> {
  const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const found = await matchParcels(packs, input, fallback, limit, gate, assumptions);
  if (typeof found === "string") return refusal(found);
  const { area, matches: shown } = found;
  const fit = unionBox(shown.map((m) => featureBBox(m.layer, m.index))) ?? area.bbox;
  return {
    output: {
      area: area.label,
      bbox: roundBox(area.bbox),
      filters: shownFilters(input),
      matched: found.matched,
      shown: shown.length,
      scanned: found.scanned,
      area_range_m2: found.range,
      order: ORDER_TEXT[input.sort ?? "area"],
      parcels: shown.slice(0, MODEL_LIST).map((m) => ({
        lot_id: m.lotId,
        area_m2: r1(m.areaM2),
        zone: m.zone,
        address: addressOf(m.props),
        station: m.station,
      })),
      demo_data: anySynthetic(shown),
    },
    map: {
      bbox: { bbox: roundBox(fit), label: area.label },
      parcels: parcelCollection(shown, (m) => ({ zone: m.zone })),
    },
  };
}

export const findParcelsTool = (ctx: ToolContext) =>
  tool({
    description: `Find parcels (lots) in a suburb, around a named station or in a box, filtered by area, zone, FSR, height, distance to a station and overlays (flood, bushfire, heritage), largest first (or by FSR, height, nearest a station, or value: the margin of residual land value over the as-is value on the organisation's assumptions). Returns counts and up to ${MODEL_LIST} lots; the map highlights up to 'limit' (default ${DEFAULT_LIMIT}).`,
    inputSchema,
    // The site search's engine, so the chat and the Find sites tab agree on every lot.
    execute: bounded(ctx, (input) =>
      findParcels(ctx.packs.visible, input, ctx.fallbackBbox, ctx.gate, ctx.assumptions),
    ),
  });
