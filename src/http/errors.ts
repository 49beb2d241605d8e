// One error module: every failure is thrown as an ApiError (or becomes one here) and formatted once.
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ValidationIssue } from "./validation.ts";

export interface InsufficientCredits {
  error: "insufficient_credits";
  required: number;
  available: number;
  deficit: number;
}

export type ErrorBody =
  | { detail: string }
  | { detail: InsufficientCredits }
  | { detail: string; retry_after: number }
  | { detail: ValidationIssue[] };

export class ApiError extends HTTPException {
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, body: ErrorBody, headers: Record<string, string> = {}) {
    super(status, { message: typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail) });
    this.body = body;
    this.headers = headers;
  }

  override getResponse(): Response {
    return new Response(JSON.stringify(this.body), {
      status: this.status,
      headers: { "content-type": "application/json", ...this.headers },
    });
  }
}

const bearer = { "WWW-Authenticate": "Bearer" };

/** The error kinds the service raises; statuses follow architecture.md section 5. */
export const errors = {
  notAuthenticated: () => new ApiError(401, { detail: "Not authenticated" }, bearer),
  tokenExpired: () => new ApiError(401, { detail: "Token expired" }, bearer),
  invalidToken: () => new ApiError(401, { detail: "Invalid token" }, bearer),
  authNotConfigured: () => new ApiError(500, { detail: "Auth not configured" }),
  billingAdminRequired: () => new ApiError(403, { detail: "Billing admin access required" }),
  notFound: (detail = "Not found") => new ApiError(404, { detail }),
  badRequest: (detail: string) => new ApiError(400, { detail }),
  invalidIdFormat: (param: string) => new ApiError(400, { detail: `Invalid ${param} format` }),
  conflict: (detail: string) => new ApiError(409, { detail }),
  payloadTooLarge: (detail: string) => new ApiError(413, { detail }),
  unsupportedMediaType: (detail: string) => new ApiError(415, { detail }),
  insufficientCredits: (required: number, available: number) =>
    new ApiError(402, {
      detail: { error: "insufficient_credits", required, available, deficit: round(required - available) },
    }),
  rateLimited: (retryAfter: number) =>
    new ApiError(429, { detail: "Rate limit exceeded", retry_after: retryAfter }, { "Retry-After": String(retryAfter) }),
  validation: (issues: ValidationIssue[]) => new ApiError(422, { detail: issues }),
  billingUnavailable: () => new ApiError(503, { detail: "Billing service unavailable" }),
  serviceUnavailable: (detail = "Service unavailable") => new ApiError(503, { detail }),
  internal: () => new ApiError(500, { detail: "Internal server error" }),
};

// Credits are decimal amounts with at most 4 places; avoid 0.30000000000000004 in error bodies.
function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}

/** Raised by storage adapters when the database cannot be reached; routes map it to 503. */
export class UnavailableError extends Error {
  constructor(what: string, options?: { cause?: unknown }) {
    super(`${what} unavailable`, options);
    this.name = "UnavailableError";
  }
}

function findCause<T>(err: unknown, kind: abstract new (...args: never[]) => T): T | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof kind) return e;
  }
  return undefined;
}

/** Converts anything thrown into the response the client sees, never leaking internals. */
export function toErrorResponse(err: unknown, log: (msg: string, err: unknown) => void): Response {
  if (err instanceof ApiError) return err.getResponse();
  // Query builders (drizzle) wrap the adapter's UnavailableError in their own error: look through causes.
  const unavailable = findCause(err, UnavailableError);
  if (unavailable) {
    log("dependency unavailable", unavailable);
    return errors.billingUnavailable().getResponse();
  }
  if (err instanceof HTTPException) {
    if (err.message.startsWith("Malformed JSON")) {
      return errors
        .validation([{ type: "json_invalid", loc: ["body"], msg: "JSON decode error", input: {}, ctx: { error: "Malformed JSON in request body" } }])
        .getResponse();
    }
    if (err.message.startsWith("Malformed FormData")) {
      return errors.badRequest("Malformed multipart/form-data body").getResponse();
    }
    if (err.status >= 500) {
      log("http exception", err);
      return errors.internal().getResponse();
    }
    return new ApiError(err.status, { detail: err.message || "Request failed" }).getResponse();
  }
  log("unhandled error", err);
  return errors.internal().getResponse();
}
