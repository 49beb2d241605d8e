// The agent's tools: input schemas and descriptions for the model over the pure tools in tools/,
// each result compact for the model while its GeoJSON goes to the map through `emit`.
import { tool } from "ai";
import { z } from "zod";
import type { BBox } from "../geo/bbox.ts";
import type { Pack } from "../packs/types.ts";
import { describeParcel } from "./tools/describe-parcel.ts";
import { DEFAULT_LIMIT, MAX_LIMIT, findParcels } from "./tools/find-parcels.ts";
import { geocodeSuburb } from "./tools/geocode-suburb.ts";
import { lookupLot } from "./tools/lookup-lot.ts";
import type { MapUpdate, ToolRun } from "./tools/map.ts";
import { DEFAULT_SITES, MAX_SITES, scoreSites, type SiteCharge } from "./tools/score-sites.ts";
import { summariseArea } from "./tools/summarise-area.ts";
import { BBoxSchema } from "./bbox.ts";
import type { QuestionBudget } from "./budget.ts";

export interface ToolDeps {
  packs: readonly Pack[];
  /** The request's bbox, else its viewport: what "here" and "these parcels" mean. */
  fallbackBbox: BBox | null;
  chargeSites(sites: number, toolCallId: string): ReturnType<SiteCharge>;
  emit(update: MapUpdate, toolCallId: string): void;
  /** The question's bounds: every call is claimed from it first. */
  budget: QuestionBudget;
}

const suburb = z.string().min(2).max(100).describe("Suburb name, optionally with a state: 'Epping' or 'Newtown, NSW'");
const area = {
  suburb: suburb.optional(),
  bbox: BBoxSchema.optional().describe(
    "[west, south, east, north] in WGS84 degrees; omit both suburb and bbox to use the map view",
  ),
};
const filters = {
  min_area_m2: z.number().min(0).max(1e7).optional().describe("Smallest lot area in square metres"),
  max_area_m2: z.number().min(0).max(1e7).optional().describe("Largest lot area in square metres"),
  zones: z
    .array(z.string().min(1).max(10))
    .max(20)
    .optional()
    .describe("Zone codes to keep, e.g. ['R2', 'R3'] (zone at the lot's centroid)"),
  hazard_free: z.boolean().optional().describe("Keep only lots with no flood or bushfire overlay at all"),
};
const lotId = z
  .string()
  .min(3)
  .max(60)
  .describe("Lot identifier in any common spelling: 'Lot 12 DP 34567', '12//DP34567', '5/3/DP758123'");

const OVER_BOUND = { error: "This question has used its tool calls; answer with the results already found." };

export function chatTools(deps: ToolDeps) {
  const shown = <T>(run: ToolRun<T>, toolCallId: string): T => {
    deps.emit(run.map, toolCallId);
    return run.output;
  };
  // A call past the question's bounds does no work: the model is told to answer with what it has.
  const claim = () => deps.budget.claimCall();
  return {
    geocode_suburb: tool({
      description: "Find a suburb: its bounding box, centre and state. The map fits to it.",
      inputSchema: z.object({ suburb }),
      execute: async (input, { toolCallId }) =>
        claim() ? shown(geocodeSuburb(deps.packs, input), toolCallId) : OVER_BOUND,
    }),
    find_parcels: tool({
      description: `Find parcels (lots) in a suburb or box, filtered by area, zone and hazards, largest first. Returns counts and up to 10 lots; the map highlights up to 'limit' (default ${DEFAULT_LIMIT}).`,
      inputSchema: z.object({ ...area, ...filters, limit: z.number().int().min(1).max(MAX_LIMIT).optional() }),
      execute: async (input, { toolCallId }) =>
        claim() ? shown(findParcels(deps.packs, input, deps.fallbackBbox), toolCallId) : OVER_BOUND,
    }),
    lookup_lot: tool({
      description: "Look up one lot by its identifier: address, area and location. The map shows it.",
      inputSchema: z.object({ lot_id: lotId }),
      execute: async (input, { toolCallId }) =>
        claim() ? shown(lookupLot(deps.packs, input), toolCallId) : OVER_BOUND,
    }),
    describe_parcel: tool({
      description:
        "Describe one parcel, by lot id or by a point: zones with their shares and planning controls (FSR, height, minimum lot size), flood, bushfire and heritage overlays with shares, and the nearest transport stop.",
      inputSchema: z.object({
        lot_id: lotId.optional(),
        lon: z.number().min(-180).max(180).optional(),
        lat: z.number().min(-90).max(90).optional(),
      }),
      execute: async (input, { toolCallId }) =>
        claim() ? shown(describeParcel(deps.packs, input), toolCallId) : OVER_BOUND,
    }),
    score_sites: tool({
      description: `Score development feasibility (0-100, rating, reasons) with the same model as batch scoring. Costs 0.1 credit per site scored. Give lot_ids, or an area with filters to score its largest matching lots (default ${DEFAULT_SITES}, at most ${MAX_SITES}). If credits are short it returns error 'insufficient_credits'.`,
      inputSchema: z.object({
        lot_ids: z.array(lotId).min(1).max(MAX_SITES).optional(),
        ...area,
        ...filters,
        limit: z.number().int().min(1).max(MAX_SITES).optional(),
      }),
      execute: async (input, { toolCallId }) =>
        claim()
          ? shown(
              await scoreSites(
                deps.packs,
                input,
                deps.fallbackBbox,
                (n) => deps.chargeSites(n, toolCallId),
                deps.budget,
              ),
              toolCallId,
            )
          : OVER_BOUND,
    }),
    summarise_area: tool({
      description:
        "Summarise a suburb or box: parcel count and sizes, zone mix, share of parcels touched by flood, bushfire and heritage overlays, transport stops.",
      inputSchema: z.object(area),
      execute: async (input, { toolCallId }) =>
        claim() ? shown(summariseArea(deps.packs, input, deps.fallbackBbox), toolCallId) : OVER_BOUND,
    }),
  };
}

export type ChatTools = ReturnType<typeof chatTools>;
