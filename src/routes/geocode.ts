// GET /geocode and GET /geocode/suggest: suburb names to bounding boxes, and search-as-you-type suggestions.
import { z } from "@hono/zod-openapi";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { NotFoundError } from "../errors.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { geocode } from "../geocode/gazetteer.ts";
import { suggestVisible } from "../geocode/suggest-visible.ts";
import { queryInt } from "./schemas/query-int.ts";
import { GeocodeSchema, SuggestionSchema } from "./schemas/geocode.ts";
import { packsForCallerOrPublic, visibleForCallerOrPublic } from "../request/caller.ts";

const GeocodeQuery = z.object({
  suburb: z
    .string()
    .min(2)
    .max(100)
    .openapi({ description: "Suburb name, optionally with a state: `Newtown, NSW`", example: "Newtown" }),
});

const SuggestQuery = z.object({
  q: z
    .string()
    .min(1)
    .max(100)
    .openapi({
      description:
        "What has been typed so far: a suburb, a lot id, or a street address starting with its house number " +
        "(`23 Pembroke St Epping`; street types may be spelled out, the state and postcode left off)",
      example: "Paramatta",
    }),
  limit: queryInt(z.number().int().min(1).max(20).default(8)).openapi({
    type: "integer",
    minimum: 1,
    maximum: 20,
    default: 8,
  }),
});

export const geocodeRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/geocode/suggest",
      tags: ["geocode"],
      summary: "Search-as-you-type: suburbs by prefix or near miss, and lots by lot id or street address",
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
      return c.json(await suggestVisible(await visibleForCallerOrPublic(c), q, limit), 200);
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
      const hit = geocode(await packsForCallerOrPublic(c), suburb);
      if (!hit) throw new NotFoundError(`Suburb not found: ${suburb.trim()}`);
      return c.json(hit, 200);
    },
  );
