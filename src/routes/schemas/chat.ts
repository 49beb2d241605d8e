// The body of POST /chat (spec: ChatRequest), with the bounds the spec leaves open.
import { z } from "@hono/zod-openapi";
import { BBoxInputSchema } from "./geometry.ts";

export const MAX_QUESTION_CHARS = 2_000;
export const MAX_VISIBLE_LAYERS = 50;
/** Whole JSON body; past it 413. */
export const MAX_CHAT_BODY_BYTES = 32 * 1024;

/** The person's answer to an approval request of the stream (a `data-approval` part's id). */
export const ChatApprovalSchema = z
  .object({
    id: z.string().min(1).max(100).openapi({ description: "The approval request's id (`data-approval` part `id`)" }),
    approved: z
      .boolean()
      .openapi({ description: "true runs the call and charges what was announced; false charges nothing" }),
  })
  .openapi("ChatApproval");

export const ChatRequestSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1)
      .max(MAX_QUESTION_CHARS)
      .optional()
      .openapi({
        description: `Natural-language question, 1 to ${MAX_QUESTION_CHARS} characters; required unless \`approval\` is given`,
        example: "Show me R2 lots over 600 m2 in Epping without flood",
      }),
    approval: ChatApprovalSchema.optional().openapi({
      description:
        "Answers the session's waiting approval request instead of asking a question (with session_id; not charged as a question)",
    }),
    session_id: z.string().max(100).nullable().optional().openapi({
      description: "X-Session-Id of an earlier answer, to continue that conversation; unknown or another user's is 404",
    }),
    bbox: BBoxInputSchema.nullable()
      .optional()
      .openapi({
        description: "[west, south, east, north]: an area the question is about (a selection)",
        example: [151.07, -33.78, 151.09, -33.765],
      }),
    viewport_bbox: BBoxInputSchema.nullable()
      .optional()
      .openapi({ description: "[west, south, east, north] of the map view: 'these parcels' and 'here' mean this" }),
    visible_layers: z
      .array(z.string().max(100))
      .max(MAX_VISIBLE_LAYERS)
      .nullable()
      .optional()
      .openapi({ description: "Layers shown on the map, e.g. ['parcels', 'flood']" }),
  })
  .superRefine((b, ctx) => {
    if (b.approval !== undefined && b.question !== undefined)
      ctx.addIssue({ code: "custom", path: ["approval"], message: "Send either a question or an approval, not both" });
    if (b.approval === undefined && b.question === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["question"],
        message: "A question is required (or an approval to answer)",
      });
    if (b.approval !== undefined && !b.session_id)
      ctx.addIssue({
        code: "custom",
        path: ["session_id"],
        message: "An approval answers a session: send its session_id",
      });
  })
  .openapi("ChatRequest");

export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** The answer's message type: the web's useChat reads it. */
export type { ChatDataParts, ChatUIMessage } from "./chat-stream.ts";
