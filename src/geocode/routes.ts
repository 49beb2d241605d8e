import { z } from "@hono/zod-openapi";
import { createRouter } from "../http/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../http/access.ts";
import { NotFoundError } from "../errors.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { geocode } from "./gazetteer.ts";
import { packsForCaller } from "../http/caller.ts";

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

export const geocodeRoutes = createRouter().openapi(
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
