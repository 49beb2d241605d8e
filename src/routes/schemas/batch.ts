// The events of POST /batch/upload (src/batch/run.ts), in stream order.
import { z } from "@hono/zod-openapi";
import { scoredSiteFields } from "./scoring.ts";
import { SiteValueSchema } from "./valuation.ts";
import { sseEvent, streamEvents } from "./sse.ts";

export const BatchStartSchema = z
  .strictObject({
    batch_id: z.string(),
    mode: z.enum(["latlon", "lot", "address"]),
    rows: z.number().int(),
    cost: z.number().openapi({ description: "Credits charged up front for the rows not yet paid" }),
    balance: z.number(),
    replayed: z.boolean(),
    notes: z.array(z.string()).openapi({ description: "Choices made on the caller's behalf, worth showing" }),
  })
  .openapi("BatchStart");

/** Where a row came from: its index among the data rows, its line in the file and every column as given. */
const rowFields = {
  index: z.number().int(),
  line: z.number().int(),
  input: z.record(z.string(), z.string()),
};

export const SiteResultSchema = z
  .strictObject({
    ...rowFields,
    ...scoredSiteFields,
    value: SiteValueSchema.optional().openapi({
      description: "The residual land value on the organisation's assumptions; absent in rows stored before it",
    }),
  })
  .openapi("SiteResult");

export const SiteErrorSchema = z.strictObject({ ...rowFields, detail: z.string() }).openapi("SiteError");

const completeFields = {
  batch_id: z.string(),
  scored: z.number().int(),
  failed: z.number().int(),
  charged: z.number(),
  replayed: z.boolean(),
};

// Deferred: the refund could not be written yet; the sweep settles the batch later.
export const BatchCompleteSchema = z
  .discriminatedUnion("settlement", [
    z.strictObject({ ...completeFields, refunded: z.number(), balance: z.number(), settlement: z.literal("settled") }),
    z.strictObject({
      ...completeFields,
      refunded: z.literal(0),
      balance: z.null(),
      settlement: z.literal("deferred"),
      detail: z.string(),
    }),
  ])
  .openapi("BatchComplete");

export const BatchEventSchema = streamEvents(
  "BatchEvent",
  "`batch_start`, then `site_result` or `site_error` per row in input order, then `batch_complete`",
  [
    sseEvent("batch_start", BatchStartSchema),
    sseEvent("site_result", SiteResultSchema),
    sseEvent("site_error", SiteErrorSchema),
    sseEvent("batch_complete", BatchCompleteSchema),
  ],
);

export type BatchEvent = z.infer<typeof BatchEventSchema>;
export type SiteResult = z.infer<typeof SiteResultSchema>;
export type SiteError = z.infer<typeof SiteErrorSchema>;
