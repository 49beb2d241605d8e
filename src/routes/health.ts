// GET /health: public liveness with the number of loaded data packs, and whether the synthetic world is still building.
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { edgeCache } from "../http/edge-cache.ts";
import { HealthSchema, type WorldState } from "./schemas/health.ts";

/** Health is polled often; loading packs (R2) is the only work it does. */
export const HEALTH_TTL_S = 5;

export const healthRoutes = createRouter().openapi(
  route({
    method: "get",
    path: "/health",
    tags: ["health"],
    summary: "Service health, the number of loaded data packs and whether the synthetic world is ready",
    description: `Edge-cached for ${HEALTH_TTL_S} s.`,
    middleware: [edgeCache(HEALTH_TTL_S, `public, max-age=${HEALTH_TTL_S}, s-maxage=${HEALTH_TTL_S}`)],
    responses: {
      200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
      ...pickErrors(500),
    },
  }),
  async (c) => {
    const { packs } = c.var.services;
    const [loaded, building] = await Promise.all([packs.public(), packs.building()]);
    const world: WorldState = building
      ? { state: "building", percent: building.percent, phase: building.phase }
      : { state: "ready" };
    return c.json({ status: "ok", packs_loaded: loaded.length, world }, 200);
  },
);
