// The events of POST /report/generate (src/report/generate.ts): progress while sites are resolved, ranked and drawn, then the PDF.
import { z } from "@hono/zod-openapi";
import { sseEvent, streamEvents } from "./sse.ts";

const step = {
  percent: z.number().int().min(0).max(100),
  message: z.string(),
};

const SiteProgressSchema = z
  .discriminatedUnion("status", [
    z.strictObject({
      index: z.number().int(),
      status: z.literal("resolved"),
      lot_id: z.string().nullable(),
      score: z.number(),
      source: z.enum(["cadastre_at_point", "cadastre_by_lot", "supplied_polygon", "cadastre_group"]).openapi({
        description:
          "cadastre_group: a group of adjoining lots named by its lot_ids, scored as one site (lot_id then lists them)",
      }),
    }),
    z.strictObject({ index: z.number().int(), status: z.literal("unresolved"), detail: z.string() }),
  ])
  .openapi("ReportSiteProgress");

// Each stage says what it did: the first event the charge, then each site, the ranking and each drawn site.
export const ReportProgressSchema = z
  .union([
    z.strictObject({
      stage: z.literal("resolving"),
      ...step,
      report_id: z.string(),
      charged: z.number(),
      balance: z.number(),
      replayed: z.boolean(),
    }),
    z.strictObject({ stage: z.literal("resolving"), ...step, site: SiteProgressSchema }),
    z.strictObject({
      stage: z.literal("ranking"),
      ...step,
      ranked: z.number().int(),
      detailed: z.number().int(),
      unresolved: z.array(z.number().int()),
    }),
    z.strictObject({
      stage: z.literal("drawing"),
      ...step,
      rank: z.number().int(),
      lot_id: z.string().nullable(),
      score: z.number(),
    }),
    z.strictObject({ stage: z.enum(["drawing", "assembling"]), ...step }),
  ])
  .openapi("ReportProgress");

export const ReportCompleteSchema = z
  .strictObject({
    report_id: z.string(),
    filename: z.string(),
    pages: z.number().int(),
    bytes: z.number().int(),
    sites: z.number().int(),
    ranked: z.number().int(),
    detailed: z.number().int(),
    unresolved: z.array(z.number().int()).openapi({ description: "Indexes of the sites no lot was found for" }),
    charged: z.number(),
    replayed: z.boolean(),
    pdf_base64: z.string().openapi({ description: "The PDF, base64-encoded" }),
  })
  .openapi("ReportComplete");

export const ReportEventSchema = streamEvents(
  "ReportEvent",
  "`progress` while sites are resolved, ranked and drawn, then `report_complete`",
  [sseEvent("progress", ReportProgressSchema), sseEvent("report_complete", ReportCompleteSchema)],
);

export type ReportEvent = z.infer<typeof ReportEventSchema>;
export type ReportProgress = z.infer<typeof ReportProgressSchema>;
export type ReportComplete = z.infer<typeof ReportCompleteSchema>;
