// The body of POST /chat (spec: ChatRequest), with the bounds the spec leaves open.
import { z } from "@hono/zod-openapi";
import { BBoxSchema } from "../../chat/bbox.ts";

export const MAX_QUESTION_CHARS = 2_000;
export const MAX_VISIBLE_LAYERS = 50;
/** Whole JSON body; past it 413. */
export const MAX_CHAT_BODY_BYTES = 32 * 1024;

export const ChatRequestSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1)
      .max(MAX_QUESTION_CHARS)
      .openapi({
        description: `Natural-language question, 1 to ${MAX_QUESTION_CHARS} characters`,
        example: "Show me R2 lots over 600 m2 in Epping without flood",
      }),
    session_id: z.string().max(100).nullable().optional().openapi({
      description: "X-Session-Id of an earlier answer, to continue that conversation; unknown or another user's is 404",
    }),
    bbox: BBoxSchema.nullable()
      .optional()
      .openapi({
        description: "[west, south, east, north]: an area the question is about (a selection)",
        example: [151.07, -33.78, 151.09, -33.765],
      }),
    viewport_bbox: BBoxSchema.nullable()
      .optional()
      .openapi({ description: "[west, south, east, north] of the map view: 'these parcels' and 'here' mean this" }),
    visible_layers: z
      .array(z.string().max(100))
      .max(MAX_VISIBLE_LAYERS)
      .nullable()
      .optional()
      .openapi({ description: "Layers shown on the map, e.g. ['parcels', 'flood']" }),
  })
  .openapi("ChatRequest");

export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** The answer's message type, defined once beside the stream; the web's useChat reads it. */
export type { ChatDataParts, ChatUIMessage } from "../../chat/message.ts";
