// Shared OpenAPI pieces: the error envelopes and the bearer scheme, registered once.
import { z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env as HonoEnv } from "hono";

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

/** A JSON response of `schema`, for a route's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Error responses by status, to spread into a route's `responses`. */
export const errorResponses = {
  400: json(ErrorSchema, "Bad request"),
  401: json(ErrorSchema, "Not authenticated, invalid or expired token"),
  402: json(InsufficientCreditsSchema, "Insufficient credits"),
  403: json(ErrorSchema, "Billing admin access required"),
  404: json(ErrorSchema, "Not found"),
  409: json(ErrorSchema, "Conflict"),
  413: json(ErrorSchema, "Payload too large"),
  415: json(ErrorSchema, "Unsupported media type: the body must be application/json"),
  422: json(ValidationErrorSchema, "Validation error"),
  429: json(RateLimitSchema, "Rate limit exceeded"),
  500: json(ErrorSchema, "Internal server error"),
  503: json(ErrorSchema, "Service unavailable"),
} as const;

export type ErrorStatus = keyof typeof errorResponses;

export function pickErrors<S extends ErrorStatus>(...statuses: S[]): { [K in S]: (typeof errorResponses)[K] } {
  const out = {} as { [K in S]: (typeof errorResponses)[K] };
  for (const s of statuses) out[s] = errorResponses[s];
  return out;
}

/** Errors every authenticated route can return (503 when the identity provider's key set is unreachable). */
export const authErrors = pickErrors(401, 422, 500, 503);

/** What each access level (http/access-levels.ts) adds to a route's responses; route() spreads them in. */
export const accessErrors = {
  authenticated: authErrors,
  // 404 before POST /auth/post-signup; 503 when the database cannot say.
  organisation: {
    ...authErrors,
    404: json(ErrorSchema, "Not found, or no organisation yet (call POST /auth/post-signup)"),
  },
  admin: {
    ...authErrors,
    403: json(ErrorSchema, "Billing admin access required"),
    404: json(ErrorSchema, "Not found, or no organisation yet (call POST /auth/post-signup)"),
  },
} as const;

export const bearerSecurity = [{ HTTPBearer: [] }];

export function registerOpenApi<E extends HonoEnv>(app: OpenAPIHono<E>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "HTTPBearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Access token from the identity provider (`{auth_url}/auth/v1/token?grant_type=password`).",
  });
}
