// find_assemblies: groups of adjoining lots that together make a site, by POST /sites/assemble's engine (docs/design.md
// section 14), over the same areas and filters as find_parcels; free, as the route is.
import { tool } from "ai";
import { z } from "zod";
import { type AssembleOutcome, assembleSites } from "../../assemble/assemble-sites.ts";
import { featureBBox } from "../../geo/bbox.ts";
import { columnsFromGeometry } from "../../geo/columns.ts";
import type { BBox } from "../../geo/bbox.ts";
import { NotFoundError, UnprocessableError } from "../../errors.ts";
import { type VisiblePacks, wholePacks } from "../../packs/open-pack.ts";
import { ASSEMBLY_MAX_LOTS, ASSEMBLY_MIN_LOTS } from "../../routes/schemas/assemble-limits.ts";
import { openGate, type WorkGate } from "../../search/gate.ts";
import { bounded, type ToolContext } from "./context.ts";
import { filterFields, type ParcelFilters, toolSearch } from "./find-parcels.ts";
import { collection, r1, refusal, roundBox, unionBox, type ToolRun } from "./map.ts";
import { areaFields, type AreaInput } from "./tool-areas.ts";

/** Groups listed to the model; the map draws up to the limit. */
export const MODEL_GROUPS = 5;
export const DEFAULT_GROUPS = 20;
/** The most lots a group holds when the question names no number: a typical mid-rise amalgamation (design section 14). */
export const DEFAULT_MAX_LOTS = 4;

const inputSchema = z.object({
  ...areaFields,
  ...filterFields,
  target_area_m2: z.number().positive().max(1e6).describe("The least area the lots must make together, in m²"),
  max_lots: z
    .number()
    .int()
    .min(ASSEMBLY_MIN_LOTS)
    .max(ASSEMBLY_MAX_LOTS)
    .optional()
    .describe(
      `The most lots in one group (${ASSEMBLY_MIN_LOTS} to ${ASSEMBLY_MAX_LOTS}; ${DEFAULT_MAX_LOTS} unless said)`,
    ),
  min_frontage_m: z.number().positive().max(10_000).optional().describe("The least street frontage together, in m"),
  exclude_strata: z.boolean().optional().describe("Leave strata lots (many owners each) out of every group"),
});
export type FindAssembliesInput = z.infer<typeof inputSchema>;

export interface FindAssembliesOutput {
  area: string;
  filters: ParcelFilters;
  target: { area_m2: number; max_lots: number; frontage_m: number | null };
  /** Groups in the area meeting the target, each lot in one group at most. */
  matched: number;
  groups: {
    group_id: string;
    lots: (string | null)[];
    area_m2: number;
    frontage_m: number;
    owners: number;
    zone: string | null;
    isolated: { lot_id: string | null; why: string }[];
  }[];
}

export async function findAssemblies(
  packs: VisiblePacks,
  input: FindAssembliesInput,
  fallback: BBox | null,
  gate: WorkGate = openGate,
): Promise<ToolRun<FindAssembliesOutput | { error: string }>> {
  // The area and the lots' filters exactly as find_parcels reads them; the area filter is per lot, the target the sum.
  const search = toolSearch(input as AreaInput & ParcelFilters, fallback, 1, wholePacks(packs));
  if (typeof search === "string") return refusal(search);
  const maxLots = input.max_lots ?? DEFAULT_MAX_LOTS;
  let found: AssembleOutcome;
  try {
    const run = await gate(() =>
      assembleSites(packs, {
        area: search.area,
        filters: search.filters ?? {},
        target: {
          min_area_m2: input.target_area_m2,
          max_lots: maxLots,
          ...(input.min_frontage_m !== undefined ? { min_frontage_m: input.min_frontage_m } : {}),
        },
        ...(input.exclude_strata ? { exclude_strata: true } : {}),
        limit: DEFAULT_GROUPS,
      }),
    );
    if (!run.ok)
      return refusal(
        `Two searches of this organisation are already running: try again in ${run.retryAfter} s or narrow the area.`,
      );
    found = run.value;
  } catch (err) {
    // An unknown suburb, an area too large or too many candidates is a sentence for the model.
    if (err instanceof NotFoundError || err instanceof UnprocessableError) return refusal(err.detail);
    throw err;
  }
  const label = search.label ?? ("suburb" in search.area ? search.area.suburb : "the map view");
  const boxes = found.groups.map((g) => featureBBox(columnsFromGeometry(g.geometry), 0));
  return {
    output: {
      area: label,
      filters: search.filters ?? {},
      target: { area_m2: input.target_area_m2, max_lots: maxLots, frontage_m: input.min_frontage_m ?? null },
      matched: found.count,
      groups: found.groups.slice(0, MODEL_GROUPS).map((g) => ({
        group_id: g.group_id,
        lots: g.lots,
        area_m2: r1(g.area_m2),
        frontage_m: r1(g.frontage_m),
        owners: g.owners_count,
        zone: g.zone,
        isolated: g.isolated.map((i) => ({ lot_id: i.lot_id, why: i.why })),
      })),
    },
    map: {
      ...(boxes.length > 0 ? { bbox: { bbox: roundBox(unionBox(boxes) as BBox), label } } : {}),
      parcels: collection(
        found.groups.map((g) => ({
          type: "Feature",
          id: g.group_id,
          geometry: g.geometry,
          properties: { group_id: g.group_id, lots: g.lots.join(", "), area_m2: g.area_m2, owners: g.owners_count },
        })),
      ),
    },
  };
}

export const findAssembliesTool = (ctx: ToolContext) =>
  tool({
    description: `Find groups of adjoining lots (2 to ${ASSEMBLY_MAX_LOTS}) that together make a site of at least target_area_m2, in a suburb, around a named station or in a box; every lot of a group passes the filters, each group is minimal (no lot can be dropped), and each lists the neighbours it would leave too small to develop (isolated sites). Free. Returns the count and up to ${MODEL_GROUPS} groups; the map outlines up to ${DEFAULT_GROUPS}.`,
    inputSchema,
    execute: bounded(ctx, (input) => findAssemblies(ctx.packs.visible, input, ctx.fallbackBbox, ctx.gate)),
  });
