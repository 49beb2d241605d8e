// POST /batch/upload: parse the CSV, find the packs, charge once, then stream per-site results (src/batch/run.ts);
// GET /batch and GET /batch/{batch_id}: the organisation's stored batches, rows as delivered (src/batch/stored-batches.ts).
import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuthEnv } from "../request/context.ts";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { errors } from "../http/errors.ts";
import { InvalidRequestError, NotFoundError } from "../errors.ts";
import { json } from "../http/openapi.ts";
import { uuidParam } from "../http/params.ts";
import { getStoredBatch, listStoredBatches } from "../batch/stored-batches.ts";
import {
  BatchIdParam,
  BatchListSchema,
  PageQuery,
  type StoredBatch,
  StoredBatchSchema,
} from "./schemas/stored-results.ts";
import { packScope } from "../packs/scope.ts";
import { sseResponse } from "../http/sse.ts";
import { sha256Hex } from "../lib/digest.ts";
import { workKey } from "../credits/work-key.ts";
import { requireAuth, requireOrg } from "../request/access.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { decodeCsvBytes, parseSitesCsv } from "../batch/csv.ts";
import { MAX_BATCH_ROWS, UNIT_PRICE } from "../credits/prices.ts";
import { chargeBatch, runBatch } from "../batch/run.ts";
import { currentAssumptions } from "../value/store.ts";
import { BatchEventSchema } from "./schemas/batch.ts";
import { eventStream } from "./schemas/sse.ts";

const NOT_FOUND = "Batch not found: no batch of your organisation has this id within the last 30 days";

export const MAX_UPLOAD_BYTES = 1024 * 1024;
// Multipart framing (boundaries, part headers, pack_id) on top of a full 1 MiB file.
const MULTIPART_ALLOWANCE = 16 * 1024;

const tooLarge = () =>
  errors.payloadTooLarge(
    `The upload is larger than 1 MiB. Split the CSV (at most ${MAX_BATCH_ROWS} sites per upload).`,
  );

const BatchForm = z.object({
  file: z.instanceof(File).openapi({
    type: "string",
    format: "binary",
    description: `CSV with latitude/longitude or lot_number columns, at most ${MAX_BATCH_ROWS} rows`,
  }),
  pack_id: z
    .string()
    .max(200)
    .default("")
    .openapi({ description: "Score against this pack only; default: every pack visible to the organisation" }),
});

const uploadLimit: MiddlewareHandler<AuthEnv> = bodyLimit({
  maxSize: MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE,
  onError: () => {
    throw tooLarge();
  },
});

export const batchRoutes = createRouter()
  .openapi(
    route({
      method: "post",
      path: "/batch/upload",
      tags: ["batch"],
      summary: `Score up to ${MAX_BATCH_ROWS} sites from a CSV, streamed as Server-Sent Events`,
      description: `Charged ${UNIT_PRICE.batch_score} credit per row after parsing (one \`usage\` entry); rows that cannot be scored or that the client did not take are refunded in one \`refund\` entry when the batch ends. Send \`Idempotency-Key\`: a retry of the same file replays the results already paid for free and charges, in one more \`usage\` entry, only the rows not yet paid (402 when short; 409 while another request under the key is still streaming). Events: \`batch_start\`, then \`site_result\` or \`site_error\` per row in input order, then \`batch_complete\`; a failure after the stream began is an \`error\` event.`,
      middleware: [requireAuth, requireOrg(), requireBuiltPacks, rateLimit("batch"), uploadLimit],
      request: {
        headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
        body: { required: true, content: { "multipart/form-data": { schema: BatchForm } } },
      },
      responses: {
        200: eventStream(BatchEventSchema, "Event stream of per-site results"),
        ...pickErrors(400, 402, 404, 409, 413, 429, 503),
      },
    }),
    async (c) => {
      const { file, pack_id: packId } = c.req.valid("form");
      const idempotencyHeader = c.req.valid("header")["idempotency-key"];
      if (file.size > MAX_UPLOAD_BYTES) throw tooLarge();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const decoded = decodeCsvBytes(bytes);
      if (!decoded.ok) throw new InvalidRequestError(decoded.detail);
      const parsed = parseSitesCsv(decoded.text, { maxRows: MAX_BATCH_ROWS });
      if (!parsed.ok) throw new InvalidRequestError(parsed.detail);

      const { services } = c.var;
      const payer = services.payer(c.var.membership);
      const { orgId } = payer;
      const assumptions = await currentAssumptions({ db: services.db(), orgId });
      const ctx = { payer, packs: await packScope(services.packs, orgId, packId), filename: file.name, assumptions };
      const key = workKey("batch", idempotencyHeader, { digest: await sha256Hex(bytes) });
      const charged = await chargeBatch(ctx, parsed, key);
      return sseResponse(runBatch(ctx, parsed, charged), {
        headers: { "X-Batch-Id": charged.firstId },
        onError: (err) => {
          services.log.error("batch failed after the stream began", { error: err });
          return { event: "error" as const, data: { detail: "Internal server error" } };
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
      path: "/batch",
      tags: ["batch"],
      summary: "The organisation's stored batches, newest first",
      description:
        "Batches kept for the organisation that paid, 30 days from their first upload; expired ones are gone. Counts are of the rows delivered.",
      middleware: [requireAuth, requireOrg()],
      request: { query: PageQuery },
      responses: { 200: json(BatchListSchema, "One page of stored batches"), ...pickErrors(503) },
    }),
    async (c) => {
      const { page, page_size: pageSize } = c.req.valid("query");
      const { items, ...paging } = await listStoredBatches(c.var.services.db(), c.var.membership.orgId, {
        page,
        pageSize,
      });
      return c.json({ batches: items, ...paging }, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/batch/{batch_id}",
      tags: ["batch"],
      summary: "A stored batch: its rows as delivered, in order, and the ledger entries that paid for it",
      description:
        "Each row as the stream sent it (`site_result` or `site_error`), only rows the client took; a result carries the model it was scored with in `feasibility.model_version`. `paid_by` lists each request's job and its `usage` entry (and `refund` entry). 404 for an unknown batch, another organisation's, or one past its 30 days; 400 for a malformed id.",
      middleware: [requireAuth, requireOrg()],
      request: { params: BatchIdParam },
      responses: { 200: json(StoredBatchSchema, "The batch as delivered"), ...pickErrors(400, 404, 503) },
    }),
    async (c) => {
      const batchId = uuidParam(c.req.valid("param").batch_id, "batch_id");
      const batch = await getStoredBatch(c.var.services.db(), c.var.membership.orgId, batchId);
      if (!batch) throw new NotFoundError(NOT_FOUND);
      // The rows are the stream's own events, stored as sent (their schema is the stream's).
      return c.json(batch as StoredBatch, 200);
    },
  );
