// find_parcels: parcels in a suburb or box filtered by area, zone and hazards, largest first, bounded.
import { tool } from "ai";
import { z } from "zod";
import { featureBBox, type BBox } from "../../geo/bbox.ts";
import type { Pack } from "../../packs/types.ts";
import {
  addressOf,
  anySynthetic,
  areaFields,
  areaPages,
  touchesOverlay,
  parcelCollection,
  parcelsIn,
  resolveArea,
  zoneAt,
  type Area,
  type AreaInput,
  type ParcelRef,
} from "./area.ts";
import { bounded, type ToolContext, toolPacks } from "./context.ts";
import { r1, refusal, roundBox, unionBox, type ToolRun } from "./map.ts";

/** Parcels listed to the model; the map gets up to `limit`. */
export const MODEL_LIST = 10;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** The filters of every tool that picks parcels of an area. */
export const filterFields = {
  min_area_m2: z.number().min(0).max(1e7).optional().describe("Smallest lot area in square metres"),
  max_area_m2: z.number().min(0).max(1e7).optional().describe("Largest lot area in square metres"),
  zones: z
    .array(z.string().min(1).max(10))
    .max(20)
    .optional()
    .describe("Zone codes to keep, e.g. ['R2', 'R3'] (zone at the lot's centroid)"),
  hazard_free: z.boolean().optional().describe("Keep only lots with no flood or bushfire overlay at all"),
};
export type ParcelFilters = z.infer<z.ZodObject<typeof filterFields>>;

const inputSchema = z.object({
  ...areaFields,
  ...filterFields,
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
});
export type FindParcelsInput = z.infer<typeof inputSchema>;

export type Match = ParcelRef & { zone: string | null };

export interface Matches {
  area: Area;
  matches: Match[];
  scanned: number;
  limited: boolean;
  range: [number, number] | null;
}

function cleanFilters(f: ParcelFilters): ParcelFilters {
  const out: ParcelFilters = {};
  if (f.min_area_m2 !== undefined) out.min_area_m2 = f.min_area_m2;
  if (f.max_area_m2 !== undefined) out.max_area_m2 = f.max_area_m2;
  if (f.zones && f.zones.length > 0) out.zones = [...new Set(f.zones.map((z) => z.trim().toUpperCase()))];
  if (f.hazard_free) out.hazard_free = true;
  return out;
}

/** Every parcel of the area passing the filters, largest first; cheap tests run before clipping ones. */
export function matchParcels(
  packs: readonly Pack[],
  input: AreaInput & ParcelFilters,
  fallback: BBox | null,
): Matches | string {
  const area = resolveArea(packs, input, fallback);
  if (typeof area === "string") return area;
  const f = cleanFilters(input);
  const { parcels, scanned, limited } = parcelsIn(packs, area);
  let lo = Infinity;
  let hi = -Infinity;
  const matches: Match[] = [];
  for (const p of parcels) {
    lo = Math.min(lo, p.areaM2);
    hi = Math.max(hi, p.areaM2);
    if (f.min_area_m2 !== undefined && p.areaM2 < f.min_area_m2) continue;
    if (f.max_area_m2 !== undefined && p.areaM2 > f.max_area_m2) continue;
    // A lots pack's lot carries its main zone and hazard shares; other packs are read from their overlays.
    const record = p.layer.record?.(p.index);
    const zone = record ? (record.facts.zones[0]?.code ?? null) : zoneAt(packs, p.centroid[0], p.centroid[1]);
    if (f.zones && (zone === null || !f.zones.includes(zone))) continue;
    const hazard = record
      ? record.facts.hazards.flood > 0 || record.facts.hazards.bushfire > 0
      : touchesOverlay(packs, p, "flood") || touchesOverlay(packs, p, "bushfire");
    if (f.hazard_free && hazard) continue;
    matches.push({ ...p, zone });
  }
  matches.sort((a, b) => b.areaM2 - a.areaM2 || (a.lotId ?? "").localeCompare(b.lotId ?? ""));
  return { area, matches, scanned, limited, range: parcels.length > 0 ? [r1(lo), r1(hi)] : null };
}

export interface FindParcelsOutput {
  area: string;
  bbox: BBox;
  filters: ParcelFilters;
  matched: number;
  shown: number;
  scanned: number;
  scan_limited: boolean;
  area_range_m2: [number, number] | null;
  order: "largest first";
  parcels: { lot_id: string | null; area_m2: number; zone: string | null; address: string | null }[];
  demo_data: boolean;
}

export function findParcels(
  packs: readonly Pack[],
  input: FindParcelsInput,
  fallback: BBox | null,
): ToolRun<FindParcelsOutput | { error: string }> {
  const found = matchParcels(packs, input, fallback);
  if (typeof found === "string") return refusal(found);
  const { area, matches } = found;
  const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const shown = matches.slice(0, limit);
  const fit = unionBox(shown.map((m) => featureBBox(m.layer, m.index))) ?? area.bbox;
  return {
    output: {
      area: area.label,
      bbox: roundBox(area.bbox),
      filters: cleanFilters(input),
      matched: matches.length,
      shown: shown.length,
      scanned: found.scanned,
      scan_limited: found.limited,
      area_range_m2: found.range,
      order: "largest first",
      parcels: shown
        .slice(0, MODEL_LIST)
        .map((m) => ({ lot_id: m.lotId, area_m2: r1(m.areaM2), zone: m.zone, address: addressOf(m.props) })),
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
    description: `Find parcels (lots) in a suburb or box, filtered by area, zone and hazards, largest first. Returns counts and up to ${MODEL_LIST} lots; the map highlights up to 'limit' (default ${DEFAULT_LIMIT}).`,
    inputSchema,
    execute: bounded(ctx, async (input) => {
      const packs = await toolPacks(ctx, areaPages(ctx.packs.base, input, ctx.fallbackBbox));
      return typeof packs === "string" ? refusal(packs) : findParcels(packs, input, ctx.fallbackBbox);
    }),
  });
