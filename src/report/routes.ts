// POST /report/generate: validate, find the packs, charge once, then stream the report (src/report/generate.ts).
import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { createRouter } from "../http/router.ts";
import { authErrors, bearerSecurity, pickErrors } from "../http/openapi.ts";
import { errors } from "../http/errors.ts";
import { sseResponse } from "../http/sse.ts";
import { requireAuth } from "../auth/middleware.ts";
import { NO_ORGANISATION } from "../billing/membership.ts";
import { getOrg } from "../billing/orgs.ts";
import { callerMembership, packsForOrg } from "../http/caller-packs.ts";
import { chargeReport } from "./charge.ts";
import { digestOf, reportDate } from "./date.ts";
import { generateReport, reportErrorEvent } from "./generate.ts";
import { MAX_BODY_BYTES, MAX_SITES, ReportGenerateRequestSchema } from "./schema.ts";

const jsonLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(`The request body is larger than 2 MiB. A report takes at most ${MAX_SITES} sites; send cadastre lots or their centroids rather than detailed outlines.`);
  },
});

export const reportRoutes = createRouter().openapi(
  createRoute({
    method: "post",
    path: "/report/generate",
    tags: ["report"],
    summary: "A PDF feasibility report of scored sites, streamed as Server-Sent Events",
    description:
      "Charged 0.5 credit in one `usage` entry before the stream starts (send `Idempotency-Key` so a retried request is charged once); refunded in full if the report cannot be generated. Points are replaced by the cadastre lot that contains them; a point outside every lot is reported as an unresolved site. `scores[i]` pairs with `parcel_geojsons[i]`; when the lengths differ the report covers the longer array (see README). Events: `progress` {stage, percent, message} while sites are resolved, ranked and drawn, then `report_complete` {filename, pages, bytes, pdf_base64}; a failure after the stream began is an `error` event {detail}.",
    security: bearerSecurity,
    middleware: [requireAuth, jsonLimit] as const,
    request: {
      headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
      body: { required: true, content: { "application/json": { schema: ReportGenerateRequestSchema } } },
    },
    responses: {
      200: { description: "Event stream of progress, then the PDF", content: { "text/event-stream": { schema: z.string() } } },
      ...authErrors,
      ...pickErrors(402, 404, 413),
    },
  }),
  async (c) => {
    const request = c.req.valid("json");
    const idempotencyHeader = c.req.valid("header")["idempotency-key"];
    const membership = await callerMembership(c);
    if (!membership) throw errors.notFound(NO_ORGANISATION);
    const { orgId } = membership;
    let packs = await packsForOrg(c, orgId);
    if (request.pack_id) {
      packs = packs.filter((p) => p.id === request.pack_id);
      if (packs.length === 0) throw errors.notFound(`Pack not found: ${request.pack_id}`);
    }
    const db = c.get("services").db();
    const org = await getOrg({ db, orgId });
    const digest = await digestOf(request);
    // The key covers the request too: a retry replays its charge, a different request under the same key is new work.
    const key = idempotencyHeader ? `report:${idempotencyHeader}:${digest.slice(0, 32)}` : `report:${crypto.randomUUID()}`;
    const services = c.get("services");
    const charge = await chargeReport({ db, orgId, userId: c.get("principal").userId, openOwnDb: () => services.openOwnDb() }, key);
    const job = { request, packs, organisation: org.name, date: reportDate(new Date()), digest, charge };
    return sseResponse(generateReport(job), {
      headers: { "X-Report-Id": charge.reportId },
      onError: (err) => {
        console.error("report failed after the stream began", charge.reportId, err instanceof Error ? (err.cause ?? err) : err);
        return reportErrorEvent(err);
      },
      waitUntil: (work) => {
        c.get("services").hold(work);
        c.executionCtx.waitUntil(work);
      },
    });
  },
);
