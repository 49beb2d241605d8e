// The error envelopes every route answers with (the spec's HTTPError, HTTPValidationError and the rest).
import { z } from "@hono/zod-openapi";

export const ErrorSchema = z.object({ detail: z.string() }).openapi("HTTPError");

export const ValidationErrorSchema = z
  .object({
    detail: z.array(
      z
        .object({
          loc: z.array(z.union([z.string(), z.number().int()])),
          msg: z.string(),
          type: z.string(),
          input: z.unknown().optional(),
          ctx: z.record(z.string(), z.unknown()).optional(),
        })
        .openapi("ValidationError"),
    ),
  })
  .openapi("HTTPValidationError");

export const InsufficientCreditsSchema = z
  .object({
    detail: z.object({
      error: z.literal("insufficient_credits"),
      required: z.number(),
      available: z.number(),
      deficit: z.number(),
    }),
  })
  .openapi("InsufficientCreditsError");

export const RateLimitSchema = z
  .object({ detail: z.string(), retry_after: z.number().int() })
  .openapi("RateLimitError");

export type ErrorBody = z.infer<typeof ErrorSchema>;
export type ValidationErrorBody = z.infer<typeof ValidationErrorSchema>;
export type InsufficientCreditsBody = z.infer<typeof InsufficientCreditsSchema>;
export type RateLimitBody = z.infer<typeof RateLimitSchema>;
/** Any error answer's body. */
export type ErrorEnvelope = ErrorBody | ValidationErrorBody | InsufficientCreditsBody | RateLimitBody;
