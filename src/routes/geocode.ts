// GET /geocode and GET /geocode/suggest: suburb names to bounding boxes, and search-as-you-type suggestions.
import { z } from "@hono/zod-openapi";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { NotFoundError } from "../errors.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { geocode } from "../geocode/gazetteer.ts";
import { suggest } from "../geocode/suggest.ts";
import { queryInt } from "../http/validation.ts";
import { packsForCaller } from "../request/caller.ts";

const GeocodeQuery = z.object({
  suburb: z
    .string()
    .min(2)
    .max(100)
    .openapi({ description: "Suburb name, optionally with a state: `Newtown, NSW`", example: "Newtown" }),
});

export const GeocodeSchema = z
  .object({
    name: z.string(),
    state: z.string().nullable(),
    bbox: z.array(z.number()).min(4).max(4).openapi({ description: "[west, south, east, north] in WGS84 degrees" }),
    center: z.array(z.number()).min(2).max(2).openapi({ description: "[lon, lat] of a point inside the suburb" }),
    sal_code: z.string().nullable(),
    pack_id: z.string(),
  })
  .openapi("GeocodeResult");

const SuggestQuery = z.object({
  q: z
    .string()
    .min(1)
    .max(100)
    .openapi({ description: "What has been typed so far: a suburb or a lot id", example: "Paramatta" }),
  limit: queryInt(z.number().int().min(1).max(20).default(8)).openapi({
    type: "integer",
    minimum: 1,
    maximum: 20,
    default: 8,
  }),
});

const SuggestionSchema = GeocodeSchema.extend({
  kind: z.enum(["suburb", "lot"]),
  lot_id: z.string().nullable(),
}).openapi("Suggestion");

export const geocodeRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/geocode/suggest",
      tags: ["geocode"],
      summary: "Search-as-you-type: suburbs by prefix or near miss, and a lot when the query is a lot id",
      middleware: [requireAuth, rateLimit("suggest")],
      request: { query: SuggestQuery },
      responses: {
        200: {
          description: "Up to `limit` suggestions, best first (may be empty)",
          content: { "application/json": { schema: z.array(SuggestionSchema) } },
        },
        ...pickErrors(429),
      },
    }),
    async (c) => {
      const { q, limit } = c.req.valid("query");
      return c.json(suggest(await packsForCaller(c), q, limit), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/geocode",
      tags: ["geocode"],
      summary: "Resolve a suburb name to its bounding box",
      middleware: [requireAuth, rateLimit("geocode")],
      request: { query: GeocodeQuery },
      responses: {
        200: { description: "The suburb", content: { "application/json": { schema: GeocodeSchema } } },
        ...pickErrors(404, 429),
      },
    }),
    async (c) => {
      const { suburb } = c.req.valid("query");
      const hit = geocode(await packsForCaller(c), suburb);
      if (!hit) throw new NotFoundError(`Suburb not found: ${suburb.trim()}`);
      return c.json(hit, 200);
    },
  );
