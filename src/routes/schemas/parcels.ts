// GET /parcels (a lot's facts) and POST /parcels/score (one site scored and charged): the score's body and both answers.
import { z } from "@hono/zod-openapi";
import { AreaGeometrySchema, LonLatSchema } from "./geometry.ts";
import { ControlAreasSchema, NearestStopSchema, ZoneShareSchema, scoredSiteFields } from "./scoring.ts";
import { SiteValueSchema } from "./valuation.ts";

export const LngNumber = z.number().min(-180).max(180).openapi({ example: 151.0036 });
export const LatNumber = z.number().min(-90).max(90).openapi({ example: -33.8136 });
export const LotId = z.string().trim().min(1).max(100).openapi({ example: "6//DP1813990" });

// A JSON body carries real numbers: a string is not coerced.
export const ScoreBody = z.object({
  lng: LngNumber.optional(),
  lat: LatNumber.optional(),
  lot_id: LotId.optional(),
  // The count is checked with the group (2 to 8), so its refusal is the group's sentence; past 100 the schema refuses.
  lot_ids: z
    .array(LotId)
    .max(100)
    .optional()
    .openapi({
      description:
        "2 to 8 adjoining lots of one pack scored as one site (docs/design.md section 14), charged as one site",
      example: ["6//DP1813990", "7//DP1813990"],
    }),
});

const WalkSchema = z.strictObject({ name: z.string(), walking_m: z.number(), straight_m: z.number() }).openapi("Walk");

export const ParcelFactsSchema = z
  .strictObject({
    pack_id: z.string(),
    lot_id: z.string().nullable(),
    address: z.string().nullable(),
    area_m2: z.number(),
    centroid: LonLatSchema,
    geometry: AreaGeometrySchema,
    zones: z.array(ZoneShareSchema),
    controls: ControlAreasSchema.nullable().openapi({
      description: "Controls from their own layers; null for older packs, whose zones carry them",
    }),
    overlays: z.strictObject({ flood: z.number(), bushfire: z.number(), heritage: z.number() }),
    heritage_names: z.array(z.string()),
    nearest_stop: NearestStopSchema.nullable(),
    nearest_station: NearestStopSchema.nullable().openapi({
      description:
        "The nearest train, metro or light-rail station within 5 km (what the housing policies and 'near a station' measure to); null when none",
    }),
    walks: z.strictObject({ station: WalkSchema.nullable(), centre: WalkSchema.nullable() }).optional().openapi({
      description:
        "On foot over the streets (the synthetic world's lots): to the nearest station listed in Housing SEPP Schedule 11 and the nearest designated town centre, each beside its straight line; null where not measured",
    }),
    sources: z
      .array(
        z.strictObject({
          layer: z
            .string()
            .openapi({ description: "The pack layer the facts come from: parcels, zoning, fsr, height, ..." }),
          service_layer: z.string(),
          source: z.string().openapi({ description: "The service it was imported from" }),
          attribution: z.string(),
          as_at: z.string().nullable().openapi({ description: "The layer's own last edit (YYYY-MM-DD)" }),
          fetched_at: z.string(),
          older_than_12_months: z.boolean().openapi({ description: "The layer's as_at is more than 12 months old" }),
        }),
      )
      .openapi({
        description:
          "Where each fact came from and how current it is, per layer of a pack imported from the NSW services (npm run import -- nsw); [] for other packs",
      }),
    demo_data: z.boolean(),
  })
  .openapi("ParcelFacts");

export const ScoreAnswerSchema = z
  .strictObject({
    job_id: z.string(),
    ...scoredSiteFields,
    value: SiteValueSchema.openapi({
      description: "The residual land value beside the score, on the organisation's current valuation assumptions",
    }),
    charged: z.number().openapi({ description: "Credits the site cost, after any refund" }),
    balance: z.number().openapi({ description: "The organisation's balance after the charge" }),
    replayed: z.boolean().openapi({ description: "The Idempotency-Key had been used: nothing new was charged" }),
  })
  .openapi("ScoreAnswer");

export type ParcelFacts = z.infer<typeof ParcelFactsSchema>;
export type ScoreAnswer = z.infer<typeof ScoreAnswerSchema>;
export type ScoreRequest = z.infer<typeof ScoreBody>;
