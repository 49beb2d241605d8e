// POST /sites/search: every lot of an area by planning controls (free, rate-limited).
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { searchPacksForCaller } from "../request/caller.ts";
import { searchSites } from "../search/engine.ts";
import type { SearchQuery } from "../search/query.ts";
import { SearchAnswerSchema, SearchBodySchema } from "./schemas/sites.ts";

export const siteRoutes = createRouter().openapi(
  route({
    method: "post",
    path: "/sites/search",
    tags: ["map"],
    summary:
      "Find sites: the lots of a suburb, LGA, box or polygon by zone, area, controls, hazards and station distance",
    middleware: [requireAuth, rateLimit("search")],
    request: { body: { required: true, content: { "application/json": { schema: SearchBodySchema } } } },
    responses: {
      200: {
        description: "The count and one page of matches",
        content: { "application/json": { schema: SearchAnswerSchema } },
      },
      ...pickErrors(404, 422, 429),
    },
  }),
  async (c) => {
    const body = c.req.valid("json") as SearchQuery;
    const { count, results, next_cursor, bbox } = await searchSites(await searchPacksForCaller(c), body);
    return c.json({ count, results, next_cursor, bbox }, 200);
  },
);
