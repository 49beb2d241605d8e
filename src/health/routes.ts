import { z } from "@hono/zod-openapi";
import { route } from "../http/route.ts";
import { createRouter } from "../http/router.ts";
import { pickErrors } from "../http/openapi.ts";

export const HealthSchema = z.object({ status: z.string(), packs_loaded: z.number().int() }).openapi("HealthResponse");

export const healthRoutes = createRouter().openapi(
  route({
    method: "get",
    path: "/health",
    tags: ["health"],
    summary: "Service health and the number of loaded data packs",
    responses: {
      200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
      ...pickErrors(500),
    },
  }),
  async (c) => {
    const packs = await c.var.services.packs.public();
    // Short edge cache: health is polled often and loading packs is the only work it does.
    c.header("Cache-Control", "public, max-age=5, s-maxage=5");
    return c.json({ status: "ok", packs_loaded: packs.length }, 200);
  },
);
