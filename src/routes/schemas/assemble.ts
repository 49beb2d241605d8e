// The body and answer of POST /sites/assemble (docs/design.md section 14): area and filters as the site search takes them.
import { z } from "@hono/zod-openapi";
import {
  ASSEMBLY_DEFAULT_LIMIT,
  ASSEMBLY_MAX_LIMIT,
  ASSEMBLY_MAX_LOTS,
  ASSEMBLY_MIN_LOTS,
  ASSEMBLY_SORTS,
} from "./assemble-limits.ts";
import { AreaGeometrySchema } from "./geometry.ts";
import { SearchBodySchema } from "./sites.ts";

const TargetSchema = z
  .object({
    min_area_m2: z
      .number()
      .positive()
      .max(1e7)
      .openapi({ description: "The least area the lots must make together", example: 1500 }),
    min_frontage_m: z
      .number()
      .positive()
      .max(10_000)
      .optional()
      .openapi({ description: "The least street frontage together (the sum of the members' frontages)" }),
    max_lots: z
      .number()
      .int()
      .min(ASSEMBLY_MIN_LOTS)
      .max(ASSEMBLY_MAX_LOTS)
      .openapi({ description: "The most lots in one group", example: 6 }),
  })
  .strict()
  .openapi("AssemblyTarget");

export const AssembleBodySchema = z
  .object({
    area: SearchBodySchema.shape.area,
    filters: SearchBodySchema.shape.filters.openapi({
      description: "As the site search's: every lot of a group passes",
    }),
    target: TargetSchema,
    exclude_strata: z
      .boolean()
      .optional()
      .openapi({ description: "Leave lots with a strata scheme out of every group" }),
    sort: z.enum(ASSEMBLY_SORTS).optional().openapi({
      description:
        "owners: fewest owners first; lots: fewest lots first; area: largest first; frontage: widest first. Each lot goes to the first group that takes it in this order",
      default: "owners",
    }),
    limit: z.number().int().min(1).max(ASSEMBLY_MAX_LIMIT).optional().openapi({ default: ASSEMBLY_DEFAULT_LIMIT }),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .nullable()
      .optional()
      .openapi({ description: "next_cursor of the previous answer" }),
  })
  .strict()
  .openapi("SiteAssemblyRequest");

const IsolatedSchema = z
  .object({
    lot_id: z.string().nullable(),
    area_m2: z.number(),
    frontage_m: z.number().nullable(),
    why: z
      .string()
      .openapi({ description: "Why the group would leave this neighbour unable to develop, as a sentence" }),
  })
  .openapi("IsolatedLot");

const GroupSchema = z
  .object({
    group_id: z.string().openapi({ description: "Stable for the same lots and pack version" }),
    lots: z.array(z.string().nullable()),
    area_m2: z.number(),
    frontage_m: z.number().openapi({ description: "The sum of the members' street frontages" }),
    geometry: AreaGeometrySchema.openapi({ description: "The union of the lots" }),
    zone: z.string().nullable().openapi({ description: "The zone covering most of the group" }),
    owners_count: z.number().int().openapi({ description: "A strata lot counts as its units" }),
    isolated: z.array(IsolatedSchema),
  })
  .openapi("LotGroup");

export const AssembleAnswerSchema = z
  .object({
    count: z.number().int().openapi({ description: "Every group chosen in the area (a lot in at most one)" }),
    groups: z.array(GroupSchema),
    next_cursor: z.string().nullable(),
  })
  .openapi("SiteAssemblyAnswer");

export type AssembleBody = z.input<typeof AssembleBodySchema>;
export type AssembleAnswerBody = z.infer<typeof AssembleAnswerSchema>;
