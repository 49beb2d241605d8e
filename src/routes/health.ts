// GET /health: public liveness with the number of loaded data packs.
import { z } from "@hono/zod-openapi";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { edgeCache } from "../http/edge-cache.ts";

/** Health is polled often; loading packs (R2) is the only work it does. */
export const HEALTH_TTL_S = 5;

export const HealthSchema = z.object({ status: z.string(), packs_loaded: z.number().int() }).openapi("HealthResponse");

export const healthRoutes = createRouter().openapi(
  route({
    method: "get",
    path: "/health",
    tags: ["health"],
    summary: "Service health and the number of loaded data packs",
    description: `Edge-cached for ${HEALTH_TTL_S} s.`,
    middleware: [edgeCache(HEALTH_TTL_S, `public, max-age=${HEALTH_TTL_S}, s-maxage=${HEALTH_TTL_S}`)],
    responses: {
      200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
      ...pickErrors(500),
    },
  }),
  async (c) => {
    return c.json({ status: "ok", packs_loaded: (await c.var.services.packs.public()).length }, 200);
  },
);
