// The TileJSON 3.0.0 document of GET /tiles/{pack_id}.json (src/tiles/tilejson.ts).
import { z } from "@hono/zod-openapi";
import { BBoxSchema } from "./geometry.ts";

const VectorLayerSchema = z.strictObject({
  id: z.string(),
  description: z.string(),
  minzoom: z.number().int(),
  maxzoom: z.number().int(),
  fields: z.record(z.string(), z.string()).openapi({ description: "Field name to its type, as TileJSON 3.0.0 says" }),
});

export const TileJsonSchema = z
  .strictObject({
    tilejson: z.literal("3.0.0"),
    name: z.string(),
    version: z.string(),
    attribution: z.string(),
    scheme: z.literal("xyz"),
    tiles: z.array(z.string()).openapi({ description: "URL template carrying the pack version" }),
    minzoom: z.number().int(),
    maxzoom: z.number().int(),
    bounds: BBoxSchema,
    center: z
      .tuple([z.number(), z.number(), z.number()])
      .openapi({ minItems: 3, maxItems: 3, description: "[lon, lat, zoom]" }),
    vector_layers: z.array(VectorLayerSchema),
  })
  .openapi("TileJSON");

export type TileJson = z.infer<typeof TileJsonSchema>;
