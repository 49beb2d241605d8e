// The answers of GET /packs and POST /packs: what a pack covers, holds and who added it.
import { z } from "@hono/zod-openapi";
import { BBoxSchema } from "./geometry.ts";
import { TileJsonSchema } from "./tiles.ts";

const UploadInfoSchema = z.object({
  layer: z.string(),
  uploaded_by: z.string(),
  uploaded_at: z.string().openapi({ format: "date-time" }),
  source: z.string().openapi({ description: "The uploaded file's name" }),
});

const PackStateSchema = z.enum(["processing", "ready", "failed"]).openapi({
  description:
    "`ready`: routes use it. `processing`: an upload of more than 5,000 features being built (a re-upload keeps serving the ready version until then). `failed`: see `failure`.",
});
const ProgressSchema = z.number().min(0).max(1).openapi({ description: "0..1 of the newest upload's build" });

export const PackSummarySchema = z
  .object({
    id: z.string().openapi({ description: "Pass as `pack_id` to POST /batch/upload to score against this pack only" }),
    version: z.string(),
    title: z.string(),
    attribution: z.string(),
    licence: z.string(),
    note: z.string().nullable(),
    bbox: BBoxSchema,
    layers: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["point", "polygon", "line"]),
        count: z.number().int(),
        synthetic: z.boolean().openapi({ description: "Every feature of the layer is synthetic (demo data)" }),
        synthetic_features: z.number().int().openapi({
          description: "How many features are synthetic; a layer may mix real features with synthetic ones",
        }),
      }),
    ),
    size: z.number().int().openapi({ description: "Bytes of the built pack" }),
    features: z.number().int().openapi({ description: "Features across its layers" }),
    private: z.boolean().openapi({ description: "Uploaded by the caller's organisation (POST /packs)" }),
    upload: UploadInfoSchema.nullable().openapi({ description: "Who uploaded it and when; null for public packs" }),
    state: PackStateSchema,
    progress: ProgressSchema,
    failure: z
      .string()
      .nullable()
      .openapi({ description: "Why the newest upload failed (state `failed`), in a sentence" }),
    provenance: z
      .array(
        z.object({
          layer: z.string().openapi({ description: "The pack layer it became: parcels, zoning, fsr, ..." }),
          source: z.string().openapi({ description: "The ArcGIS REST service it was read from" }),
          service_layer: z.string().openapi({ description: "The service's name for the layer" }),
          query: z.string().openapi({ description: "The query asked (area, reference systems), without paging" }),
          fetched_at: z.string().openapi({ format: "date-time" }),
          as_at: z
            .string()
            .nullable()
            .openapi({ description: "The layer's own last edit (YYYY-MM-DD), null when the service does not say" }),
          count: z.number().int().openapi({ description: "Features the service counted over the area" }),
          licence: z.string(),
          attribution: z.string(),
        }),
      )
      .openapi({ description: "Per layer of an imported pack (npm run import -- nsw); empty for other packs" }),
    tilejson: TileJsonSchema.optional().openapi({
      description:
        "A public pack's TileJSON, as GET /tiles/{pack_id}.json answers it, so a map needs no other request before its tiles; absent for the organisation's own packs",
    }),
  })
  .openapi("PackSummary");

export const UploadedPackSchema = z
  .object({
    pack_id: z.string(),
    name: z.string(),
    version: z.string(),
    layers: z.array(z.string()),
    features: z.number().int(),
    bbox: BBoxSchema,
    size: z.number().int(),
    uploaded_by: z.string(),
    uploaded_at: z.string().openapi({ format: "date-time" }),
    state: z.enum(["processing", "ready"]).openapi({
      description: "`ready` (201): routes use it now. `processing` (202): built by a queue; poll GET /packs",
    }),
    progress: ProgressSchema,
  })
  .openapi("UploadedPack");

export type PackSummary = z.infer<typeof PackSummarySchema>;
export type UploadedPack = z.infer<typeof UploadedPackSchema>;
