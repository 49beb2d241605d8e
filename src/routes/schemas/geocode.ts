// The answers of GET /geocode (a suburb's box) and GET /geocode/suggest (search-as-you-type).
import { z } from "@hono/zod-openapi";
import { BBoxSchema, LonLatSchema } from "./geometry.ts";

export const GeocodeSchema = z
  .object({
    name: z.string(),
    state: z.string().nullable(),
    bbox: BBoxSchema,
    center: LonLatSchema.openapi({ description: "[lon, lat] of a point inside the suburb" }),
    sal_code: z.string().nullable(),
    pack_id: z.string(),
  })
  .openapi("GeocodeResult");

export const SuggestionSchema = GeocodeSchema.extend({
  kind: z.enum(["suburb", "lot"]),
  lot_id: z.string().nullable(),
}).openapi("Suggestion");

export type Suggestion = z.infer<typeof SuggestionSchema>;
