// Shared OpenAPI pieces: the error responses by status (their envelopes are routes/schemas/errors.ts) and the bearer scheme.
import type { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Env as HonoEnv } from "hono";
import {
  ErrorSchema,
  InsufficientCreditsSchema,
  RateLimitSchema,
  ValidationErrorSchema,
} from "../routes/schemas/errors.ts";

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

/** The 204 answer of a DELETE route. */
export const deleted = { 204: { description: "Deleted" } } as const;
