// POST /report/generate: validate, find the packs, charge once (one statement), then stream the report (src/report/generate.ts);
// GET /report and GET /report/{report_id}: the organisation's stored reports and their PDFs (src/report/stored-reports.ts).
import { packScope } from "../packs/scope.ts";
import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireAuth, requireOrg } from "../request/access.ts";
import type { AuthEnv } from "../request/context.ts";
import { errors } from "../http/errors.ts";
import { json, pickErrors } from "../http/openapi.ts";
import { uuidParam } from "../http/params.ts";
import { NotFoundError } from "../errors.ts";
import { reportKeeper } from "../report/keep.ts";
import { getStoredReport, listStoredReports } from "../report/stored-reports.ts";
import { PageQuery, ReportIdParam, ReportListSchema } from "./schemas/stored-results.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { sseResponse } from "../http/sse.ts";
import { reserve } from "../credits/charged-work.ts";
import { workKey } from "../credits/work-key.ts";
import { UNIT_PRICE } from "../credits/prices.ts";
import { digestOf } from "../lib/digest.ts";
import { reportDate } from "../report/date.ts";
import { generateReport, reportErrorEvent } from "../report/generate.ts";
import { currentAssumptions } from "../value/store.ts";
import { MAX_BODY_BYTES, MAX_SITES, ReportGenerateRequestSchema } from "../report/schema.ts";
import { ReportEventSchema } from "./schemas/report.ts";
import { eventStream } from "./schemas/sse.ts";

const jsonLimit: MiddlewareHandler<AuthEnv> = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(
      `The request body is larger than 2 MiB. A report takes at most ${MAX_SITES} sites; send cadastre lots or their centroids rather than detailed outlines.`,
    );
  },
});

const NOT_FOUND = "Report not found: no report your organisation paid for has this id within the last 30 days";

/** A file name safe inside a quoted Content-Disposition parameter. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "-") || "report.pdf";

export const reportRoutes = createRouter()
  .openapi(
    route({
      method: "post",
      path: "/report/generate",
      tags: ["report"],
      summary: "A PDF feasibility report of scored sites, streamed as Server-Sent Events",
      description: `Charged ${UNIT_PRICE.report} credit in one \`usage\` entry before the stream starts (send \`Idempotency-Key\` so a retried request is charged once); refunded in full if the report cannot be generated. Points are replaced by the cadastre lot that contains them; a point outside every lot is reported as an unresolved site. \`scores[i]\` pairs with \`parcel_geojsons[i]\`; when the lengths differ the report covers the longer array (see README). Events: \`progress\` {stage, percent, message} while sites are resolved, ranked and drawn, then \`report_complete\` {filename, pages, bytes, pdf_base64}; a failure after the stream began is an \`error\` event {detail}.`,
      middleware: [requireAuth, requireOrg(), requireBuiltPacks, rateLimit("report"), jsonLimit],
      maxBodyBytes: MAX_BODY_BYTES,
      request: {
        headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
        body: { required: true, content: { "application/json": { schema: ReportGenerateRequestSchema } } },
      },
      responses: {
        200: eventStream(ReportEventSchema, "Event stream of progress, then the PDF"),
        ...pickErrors(402, 404, 413, 429, 503),
      },
    }),
    async (c) => {
      const request = c.req.valid("json");
      const idempotencyHeader = c.req.valid("header")["idempotency-key"];
      const { services, membership } = c.var;
      const { orgId } = membership;
      const packs = await packScope(services.packs, orgId, request.pack_id);
      const digest = await digestOf(request);
      // Read before the charge: a database that fails here has charged nothing.
      const assumptions = await currentAssumptions({ db: services.db(), orgId });
      const work = await reserve(services.payer(membership), {
        action: "report",
        units: 1,
        key: workKey("report", idempotencyHeader, { digest }),
        description: "Feasibility report (PDF)",
      });
      // The charge reads the organisation's name too: the cover prints it without another round trip.
      // The PDF is kept for the organisation that paid (R2, the packs' bucket under results/), before it is sent.
      const keep = reportKeeper({ db: services.db(), bucket: services.results, orgId, userId: membership.userId });
      const date = reportDate(new Date());
      const job = { request, packs, organisation: work.payerName, date, digest, work, keep, assumptions };
      return sseResponse(generateReport(job), {
        headers: { "X-Report-Id": work.id },
        onError: (err) => {
          services.log.error("report failed after the stream began", { report_id: work.id, error: err });
          return reportErrorEvent(err);
        },
        waitUntil: (work) => {
          services.hold(work);
          c.executionCtx.waitUntil(work);
        },
      });
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/report",
      tags: ["report"],
      summary: "The organisation's stored reports, newest first",
      description:
        "Reports the organisation paid for (a refunded report is not kept), 30 days from their generation; expired ones are gone.",
      middleware: [requireAuth, requireOrg()],
      request: { query: PageQuery },
      responses: { 200: json(ReportListSchema, "One page of stored reports"), ...pickErrors(503) },
    }),
    async (c) => {
      const { page, page_size: pageSize } = c.req.valid("query");
      const { items, ...paging } = await listStoredReports(c.var.services.db(), c.var.membership.orgId, {
        page,
        pageSize,
      });
      return c.json({ reports: items, ...paging }, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/report/{report_id}",
      tags: ["report"],
      summary: "A stored report's PDF, byte for byte as report_complete sent it",
      description:
        "404 for an unknown report, another organisation's, a refunded one or one past its 30 days; 400 for a malformed id.",
      middleware: [requireAuth, requireOrg()],
      request: { params: ReportIdParam },
      responses: {
        200: {
          description: "The PDF",
          content: { "application/pdf": { schema: z.string().openapi({ type: "string", format: "binary" }) } },
        },
        ...pickErrors(400, 404, 503),
      },
    }),
    async (c) => {
      const reportId = uuidParam(c.req.valid("param").report_id, "report_id");
      const found = await getStoredReport(
        c.var.services.db(),
        c.var.services.results,
        c.var.membership.orgId,
        reportId,
      );
      if (!found) throw new NotFoundError(NOT_FOUND);
      const { summary, body } = found;
      return c.body(body, 200, {
        "Content-Type": "application/pdf",
        "Content-Length": String(summary.bytes),
        "Content-Disposition": `attachment; filename="${safeName(summary.filename)}"`,
        "Cache-Control": "private, no-store",
        ETag: `"${summary.sha256}"`,
        "X-Report-Id": summary.report_id,
      });
    },
  );
