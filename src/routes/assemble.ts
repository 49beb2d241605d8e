// POST /sites/assemble: groups of adjoining lots that together make a site (docs/design.md section 14); free,
// rate-limited and gated exactly as POST /sites/search, whose area and filters it takes.
import { assembleSites, type AssembleQuery } from "../assemble/assemble-sites.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { visibleForCaller } from "../request/caller.ts";
import { concurrencyLimit } from "../request/concurrency.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { createRouter } from "../request/router.ts";
import { checkPolygon } from "./polygon-check.ts";
import { AssembleAnswerSchema, AssembleBodySchema } from "./schemas/assemble.ts";

const AssembleBody = AssembleBodySchema.superRefine((b, ctx) => checkPolygon(ctx, ["area", "polygon"], b.area.polygon));

export const assembleRoutes = createRouter().openapi(
  route({
    method: "post",
    path: "/sites/assemble",
    tags: ["map"],
    summary:
      "Combine adjoining lots: minimal groups of 2 to 8 lots passing the filters that together meet a target area and frontage, with the neighbours each would isolate",
    // The search's own limits: counted per minute in its bucket, and one of its two slots per organisation.
    middleware: [requireAuth, requireBuiltPacks, rateLimit("search"), concurrencyLimit("heavy")],
    request: { body: { required: true, content: { "application/json": { schema: AssembleBody } } } },
    responses: {
      200: {
        description: "The count of groups and one page of them",
        content: { "application/json": { schema: AssembleAnswerSchema } },
      },
      ...pickErrors(404, 422, 429),
      422: {
        ...pickErrors(422)[422],
        description:
          "Validation error, or an assembly whose work would exceed the budget (48 MiB read, 5,000,000 lots tested, 25,000 lots passing the filters)",
      },
      429: {
        ...pickErrors(429)[429],
        description:
          "Rate limit exceeded, or two searches or assemblies of the organisation still running after 2 s of waiting (Retry-After)",
      },
    },
  }),
  async (c) => {
    const body = c.req.valid("json") as AssembleQuery;
    const { count, groups, next_cursor } = await assembleSites(await visibleForCaller(c), body);
    return c.json({ count, groups, next_cursor }, 200);
  },
);
