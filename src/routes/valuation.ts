// GET/PUT /valuation/assumptions and GET /valuation/assumptions/history (docs/design.md section 13): the organisation's
// valuation assumptions, any role reads them, owners and admins replace them, each edit a new version.
import { json, pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth, requireOrg, requireRole } from "../request/access.ts";
import { createRouter } from "../request/router.ts";
import { AssumptionsDocumentSchema, AssumptionsHistorySchema, AssumptionsSchema } from "./schemas/valuation.ts";
import { assumptionsHistory, currentAssumptions, saveAssumptions } from "../value/store.ts";

// The whole document, as GET answers it; its version and stamps, if sent back, are ignored.
const PutBody = AssumptionsSchema;
// 648 suburbs of prices by form is about 70 KB.
const MAX_BODY_BYTES = 512 * 1024;

export const valuationRoutes = createRouter()
  .openapi(
    route({
      tags: ["valuation"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/valuation/assumptions",
      summary: "The organisation's current valuation assumptions (the illustrative defaults, version 0, until edited)",
      responses: { 200: json(AssumptionsDocumentSchema, "The current version"), ...pickErrors(503) },
    }),
    async (c) => {
      const doc = await currentAssumptions({ db: c.var.services.db(), orgId: c.var.membership.orgId });
      return c.json(doc, 200);
    },
  )
  .openapi(
    route({
      tags: ["valuation"],
      middleware: [requireAuth, requireRole("admin")],
      method: "put",
      path: "/valuation/assumptions",
      summary: "Replace the valuation assumptions (owner or admin): the whole document becomes the next version",
      description:
        "A negative amount, a percentage of 100 or more, or a price of 0 is a 422 naming the field. Scores made after it name the new `assumptions_version`.",
      maxBodyBytes: MAX_BODY_BYTES,
      request: { body: { required: true, content: { "application/json": { schema: PutBody } } } },
      responses: { 200: json(AssumptionsDocumentSchema, "The new version"), ...pickErrors(413, 503) },
    }),
    async (c) => {
      const { orgId, userId } = c.var.membership;
      const doc = await saveAssumptions({ db: c.var.services.db(), orgId, userId, assumptions: c.req.valid("json") });
      return c.json(doc, 200);
    },
  )
  .openapi(
    route({
      tags: ["valuation"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/valuation/assumptions/history",
      summary: "Every version of the valuation assumptions, newest first (at most 100), the defaults (version 0) last",
      responses: { 200: json(AssumptionsHistorySchema, "The versions"), ...pickErrors(503) },
    }),
    async (c) => {
      const history = await assumptionsHistory({ db: c.var.services.db(), orgId: c.var.membership.orgId });
      return c.json(history, 200);
    },
  );
