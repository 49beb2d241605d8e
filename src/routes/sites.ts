// POST /sites/search: every lot of an area by planning controls (free, rate-limited, two at once per organisation).
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { concurrencyLimit } from "../request/concurrency.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { searchPacksForCaller } from "../request/caller.ts";
import { searchSites } from "../search/engine.ts";
import type { SearchQuery } from "../search/query.ts";
import { checkPolygon } from "./polygon-check.ts";
import { SearchAnswerSchema, SearchBodySchema } from "./schemas/sites.ts";

const SearchBody = SearchBodySchema.superRefine((b, ctx) => checkPolygon(ctx, ["area", "polygon"], b.area.polygon));

export const siteRoutes = createRouter().openapi(
  route({
    method: "post",
    path: "/sites/search",
    tags: ["map"],
    summary:
      "Find sites: the lots of a suburb, LGA, box or polygon by zone, area, controls, hazards and station distance",
    // Free but heavy: counted per minute, and at most two at once per organisation.
    middleware: [requireAuth, rateLimit("search"), concurrencyLimit("heavy")],
    request: { body: { required: true, content: { "application/json": { schema: SearchBody } } } },
    responses: {
      200: {
        description: "The count and one page of matches",
        content: { "application/json": { schema: SearchAnswerSchema } },
      },
      ...pickErrors(404, 422, 429),
      422: {
        ...pickErrors(422)[422],
        description:
          "Validation error, or a search whose work would exceed the budget (48 MiB read, 5,000,000 lots tested)",
      },
      429: {
        ...pickErrors(429)[429],
        description:
          "Rate limit exceeded, or two searches of the organisation still running after 2 s of waiting (Retry-After)",
      },
    },
  }),
  async (c) => {
    const body = c.req.valid("json") as SearchQuery;
    const { count, results, next_cursor, bbox } = await searchSites(await searchPacksForCaller(c), body);
    return c.json({ count, results, next_cursor, bbox }, 200);
  },
);
