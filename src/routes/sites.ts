// POST /sites/search: every lot of an area by planning controls (free, rate-limited, two at once per organisation);
// /sites/saved: the organisation's saved sites (docs/design.md section 12), any role.
import { z } from "@hono/zod-openapi";
import { deleteSavedSite, listSavedSites, saveSite } from "../alerts/saved-sites.ts";
import { deleted, json } from "../http/openapi.ts";
import { uuidParam } from "../http/params.ts";
import { locateParcel, siteArea } from "../assess/locate-lot.ts";
import { requireOrg } from "../request/access.ts";
import { packsForCaller } from "../request/caller.ts";
import { createRouter } from "../request/router.ts";
import { siteRef } from "./parcels.ts";
import { SaveSiteBody, SavedSiteIdParam, SavedSiteSchema } from "./schemas/alerts.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { concurrencyLimit } from "../request/concurrency.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { callerOrgId, visibleForCaller } from "../request/caller.ts";
import { currentAssumptions, defaultsDocument } from "../value/store.ts";
import { searchSites } from "../search/engine.ts";
import type { SearchQuery } from "../search/query.ts";
import { checkPolygon } from "./polygon-check.ts";
import { SearchAnswerSchema, SearchBodySchema } from "./schemas/sites.ts";

const SearchBody = SearchBodySchema.superRefine((b, ctx) => checkPolygon(ctx, ["area", "polygon"], b.area.polygon));

export const siteRoutes = createRouter()
  .openapi(
    route({
      method: "post",
      path: "/sites/search",
      tags: ["map"],
      summary:
        "Find sites: the lots of a suburb, LGA, box or polygon by zone, area, controls, hazards and station distance",
      // Free but heavy: counted per minute, and at most two at once per organisation.
      middleware: [requireAuth, requireBuiltPacks, rateLimit("search"), concurrencyLimit("heavy")],
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
      // A value sort prices lots on the organisation's assumptions (the shipped defaults before it has one).
      const orgId = body.sort === "value" ? await callerOrgId(c) : null;
      const assumptions =
        body.sort !== "value"
          ? undefined
          : orgId === null
            ? defaultsDocument()
            : await currentAssumptions({ db: c.var.services.db(), orgId });
      const query = assumptions ? { ...body, assumptions } : body;
      const { count, results, next_cursor, bbox } = await searchSites(await visibleForCaller(c), query);
      return c.json({ count, results, next_cursor, bbox }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/sites/saved",
      tags: ["alerts"],
      summary: "Save a site for the organisation, by lot id or point (a lot saved already is answered as it is, 200)",
      middleware: [requireAuth, requireOrg(), requireBuiltPacks],
      request: { body: { required: true, content: { "application/json": { schema: SaveSiteBody } } } },
      responses: {
        201: json(SavedSiteSchema, "Saved"),
        200: json(SavedSiteSchema, "Saved before: the existing site"),
        ...pickErrors(404, 409, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const site = siteRef(body, "body");
      const packs = await packsForCaller(c, [siteArea(site)]);
      const hit = locateParcel(packs, site);
      const { site: saved, created } = await saveSite({
        db: c.var.services.db(),
        orgId: c.var.membership.orgId,
        userId: c.var.principal.userId,
        hit,
        point: "lng" in site ? site : null,
        note: body.note && body.note.length > 0 ? body.note : null,
      });
      return created ? c.json(saved, 201) : c.json(saved, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/sites/saved",
      tags: ["alerts"],
      summary: "The organisation's saved sites, newest first",
      middleware: [requireAuth, requireOrg()],
      responses: { 200: json(z.array(SavedSiteSchema), "The saved sites"), ...pickErrors(503) },
    }),
    async (c) => c.json(await listSavedSites(c.var.services.db(), c.var.membership.orgId), 200),
  )
  .openapi(
    route({
      method: "delete",
      path: "/sites/saved/{id}",
      tags: ["alerts"],
      summary: "Remove a saved site and the alerts on it",
      middleware: [requireAuth, requireOrg()],
      request: { params: SavedSiteIdParam },
      responses: { ...deleted, ...pickErrors(400, 404, 503) },
    }),
    async (c) => {
      const id = uuidParam(c.req.valid("param").id, "saved site id");
      await deleteSavedSite(c.var.services.db(), c.var.membership.orgId, id);
      return c.body(null, 204);
    },
  );
