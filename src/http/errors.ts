// The one HTTP mapping of errors: error kinds (src/errors.ts) and HTTP-only failures become the spec's
// envelopes and statuses here, and nowhere else.
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, type ErrorKind, InsufficientCreditsError, UnprocessableError, findCause } from "../errors.ts";
import { classifyDbError } from "../db/errors.ts";
import type { Logger } from "../logger.ts";
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

/** An error that already is an HTTP response (413, 422, 429, 500): thrown by the HTTP layer itself. */
export class ApiError extends HTTPException {
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, body: ErrorBody, headers: Record<string, string> = {}) {
    super(status, { message: typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail) });
    this.body = body;
    this.headers = headers;
  }

  override getResponse(): Response {
    return errorResponse(this.status, this.body, this.headers);
  }
}

/** The envelope as a response; no Error is built for it (capturing a stack costs more than the response). */
function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The one status map; statuses follow docs/design.md section 5. */
const STATUS: Record<ErrorKind, ContentfulStatusCode> = {
  invalid_request: 400,
  unauthenticated: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  not_configured: 500,
  unavailable: 503,
};

const bearer = { "WWW-Authenticate": "Bearer" };

/** Errors only the HTTP layer raises. */
export const errors = {
  payloadTooLarge: (detail: string) => new ApiError(413, { detail }),
  unsupportedMediaType: (detail: string) => new ApiError(415, { detail }),
  rateLimited: (retryAfter: number, headers: Record<string, string> = {}) =>
    new ApiError(
      429,
      { detail: "Rate limit exceeded", retry_after: retryAfter },
      { ...headers, "Retry-After": String(retryAfter) },
    ),
  validation: (issues: ValidationIssue[]) => new ApiError(422, { detail: issues }),
  // Data still being prepared (the dev stack's background world build): the standard envelope, and when to come back.
  notReady: (detail: string, retryAfter: number) =>
    new ApiError(503, { detail }, { "Retry-After": String(retryAfter) }),
  internal: () => new ApiError(500, { detail: "Internal server error" }),
};

/** The response for an error kind. */
export function kindResponse(err: AppError): Response {
  if (err instanceof InsufficientCreditsError) {
    const detail = {
      error: "insufficient_credits" as const,
      required: err.required,
      available: err.available,
      deficit: err.deficit,
    };
    return errorResponse(402, { detail });
  }
  // The 422 envelope is always a list of issues (the spec's HTTPValidationError), whoever raised it.
  if (err instanceof UnprocessableError) {
    return errorResponse(422, { detail: [{ loc: err.loc, msg: err.detail, type: err.type }] });
  }
  return errorResponse(STATUS[err.kind], { detail: err.detail }, err.kind === "unauthenticated" ? bearer : {});
}

/** Converts anything thrown into the response the client sees, never leaking internals. */
export function toErrorResponse(err: unknown, log: Logger): Response {
  if (err instanceof ApiError) return err.getResponse();
  // Query builders (drizzle) wrap the driver's failure in their own error: look through causes.
  const kind = findCause(classifyDbError(err), AppError);
  if (kind) {
    if (kind.kind === "unavailable") log.error("dependency unavailable", { error: kind });
    if (kind.kind === "not_configured") log.error("not configured", { error: kind });
    return kindResponse(kind);
  }
  if (err instanceof HTTPException && err.status < 500) {
    return errorResponse(err.status, { detail: err.message || "Request failed" });
  }
  log.error("unhandled error", { error: err });
  return errors.internal().getResponse();
}
