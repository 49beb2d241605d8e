// GET /packs: the data packs the caller's organisation can use (public and its own).
import { z } from "@hono/zod-openapi";
import { createRouter } from "../request/router.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { packsForCaller } from "../request/caller.ts";
import { summarisePack } from "../packs/summary.ts";

const PackSummarySchema = z
  .object({
    id: z.string().openapi({ description: "Pass as `pack_id` to POST /batch/upload to score against this pack only" }),
    version: z.string(),
    title: z.string(),
    attribution: z.string(),
    licence: z.string(),
    note: z.string().nullable(),
    bbox: z.array(z.number()).min(4).max(4).openapi({ description: "[west, south, east, north]" }),
    layers: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["point", "polygon"]),
        count: z.number().int(),
        synthetic: z.boolean().openapi({ description: "Every feature of the layer is synthetic (demo data)" }),
        synthetic_features: z.number().int().openapi({
          description: "How many features are synthetic; a layer may mix real features with synthetic ones",
        }),
      }),
    ),
  })
  .openapi("PackSummary");

export const packRoutes = createRouter().openapi(
  route({
    method: "get",
    path: "/packs",
    tags: ["packs"],
    summary: "Data packs visible to the caller: coverage, layers, attribution and licence",
    middleware: [requireAuth],
    responses: {
      200: {
        description: "Public packs and the organisation's private packs",
        content: { "application/json": { schema: z.array(PackSummarySchema) } },
      },
    },
  }),
  async (c) => c.json((await packsForCaller(c)).map(summarisePack), 200),
);
