// Stored results (docs/design.md section 5): a batch's delivered rows and a report's PDF, kept 30 days for the payer.
import { z } from "@hono/zod-openapi";
import { queryInt } from "./query-int.ts";
import { SiteErrorSchema, SiteResultSchema } from "./batch.ts";

const dateTime = z.string().openapi({ format: "date-time" });
const uuid = z.string().openapi({ format: "uuid" });

export const PageQuery = z.object({
  page: queryInt(z.int().min(1).default(1)).openapi({ example: 1 }),
  page_size: queryInt(z.int().min(1).max(100).default(20)).openapi({ example: 20 }),
});

const pageFields = {
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
};

export const BatchIdParam = z.object({
  batch_id: uuid.openapi({
    param: { name: "batch_id", in: "path" },
    description: "`batch_id` of batch_start (and `X-Batch-Id`)",
  }),
});

export const ReportIdParam = z.object({
  report_id: uuid.openapi({
    param: { name: "report_id", in: "path" },
    description: "`report_id` of report_complete (and `X-Report-Id`)",
  }),
});

const batchSummaryFields = {
  batch_id: uuid,
  filename: z.string(),
  mode: z.enum(["latlon", "lot", "address"]),
  file_rows: z.number().int().openapi({ description: "Rows in the uploaded file" }),
  delivered: z.number().int().openapi({ description: "Rows the client took, results and errors" }),
  scored: z.number().int(),
  failed: z.number().int(),
  in_progress: z.boolean().openapi({ description: "A request of the batch is still streaming: more rows may come" }),
  created_at: dateTime,
  expires_at: dateTime,
};

export const BatchSummarySchema = z.strictObject(batchSummaryFields).openapi("StoredBatchSummary");

export const StoredRowSchema = z
  .discriminatedUnion("event", [
    z.strictObject({ event: z.literal("site_result"), data: SiteResultSchema }),
    z.strictObject({ event: z.literal("site_error"), data: SiteErrorSchema }),
  ])
  .openapi("StoredBatchRow");

export const BatchPaymentSchema = z
  .strictObject({
    job_id: uuid,
    ledger_entry_id: uuid.openapi({ description: "The `usage` entry that charged this request of the batch" }),
    refund_entry_id: uuid.nullable(),
    status: z.enum(["charged", "settled"]),
    charged: z.number(),
    refunded: z.number().nullable(),
    created_at: dateTime,
  })
  .openapi("BatchPayment");

export const StoredBatchSchema = z
  .strictObject({
    ...batchSummaryFields,
    model_versions: z
      .array(z.string())
      .openapi({ description: "The scoring models of the rows, each row's own in `feasibility.model_version`" }),
    totals: z.strictObject({
      delivered: z.number().int(),
      scored: z.number().int(),
      failed: z.number().int(),
      charged: z.number(),
      refunded: z.number(),
    }),
    paid_by: z.array(BatchPaymentSchema),
    rows: z.array(StoredRowSchema).openapi({ description: "The rows as delivered, in order" }),
  })
  .openapi("StoredBatch");

export const BatchListSchema = z
  .strictObject({ batches: z.array(BatchSummarySchema), ...pageFields })
  .openapi("StoredBatchList");

export const ReportSummarySchema = z
  .strictObject({
    report_id: uuid,
    filename: z.string(),
    location: z.string().nullable(),
    pages: z.number().int(),
    bytes: z.number().int(),
    sha256: z.string(),
    ledger_entry_id: uuid.openapi({ description: "The `usage` entry that paid for the report" }),
    created_at: dateTime,
    expires_at: dateTime,
  })
  .openapi("StoredReportSummary");

export const ReportListSchema = z
  .strictObject({ reports: z.array(ReportSummarySchema), ...pageFields })
  .openapi("StoredReportList");

export type StoredBatch = z.infer<typeof StoredBatchSchema>;
export type StoredRow = z.infer<typeof StoredRowSchema>;
export type BatchSummary = z.infer<typeof BatchSummarySchema>;
export type BatchList = z.infer<typeof BatchListSchema>;
export type ReportSummary = z.infer<typeof ReportSummarySchema>;
export type ReportList = z.infer<typeof ReportListSchema>;
