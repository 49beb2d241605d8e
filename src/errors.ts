// The error kinds the service raises. Feature code and adapters throw these (or return results); only
// src/http/errors.ts knows their statuses and envelopes, so nothing below the HTTP layer imports Hono.

export type ErrorKind =
  | "invalid_request"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unprocessable"
  | "insufficient_credits"
  | "not_configured"
  | "unavailable";

/** Base of every kind; `detail` is what the client may read, `message` what the log says. */
export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown; message?: string }) {
    super(options?.message ?? detail, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = detail;
    this.name = new.target.name;
  }
}

/** The request cannot be done as asked: a malformed id, an unreadable file, a rule it breaks. */
export class InvalidRequestError extends AppError {
  readonly kind = "invalid_request";
}

export type CredentialProblem = "Not authenticated" | "Invalid token" | "Token expired";

/** No usable credentials. */
export class UnauthenticatedError extends AppError {
  readonly kind = "unauthenticated";
  constructor(detail: CredentialProblem) {
    super(detail);
  }
}

/** Authenticated, but the caller's role does not allow it. */
export class ForbiddenError extends AppError {
  readonly kind = "forbidden";
}

/** Missing, or belonging to another organisation (never reveal which). */
export class NotFoundError extends AppError {
  readonly kind = "not_found";
  constructor(detail = "Not found") {
    super(detail);
  }
}

/** The 404 detail for a caller without an organisation: here so billing and orgs both say it without a cycle. */
export const NO_ORGANISATION = "No organisation for this user: call POST /auth/post-signup first";

/** The request clashes with the current state (a duplicate, a concurrent change). */
export class ConflictError extends AppError {
  readonly kind = "conflict";
}

/** The request is larger than a limit allows (an upload's bytes). */
export class TooLargeError extends AppError {
  readonly kind = "too_large";
}

/** Well-formed, but its content breaks a rule; `loc` says where (e.g. ["body", "file", "features", 12]). */
export class UnprocessableError extends AppError {
  readonly kind = "unprocessable";
  readonly loc: (string | number)[];
  readonly type: string;
  constructor(detail: string, loc: (string | number)[], type = "value_error") {
    super(detail);
    this.loc = loc;
    this.type = type;
  }
}

/** A debit the balance does not cover; carries the figures the client sees. */
export class InsufficientCreditsError extends AppError {
  readonly kind = "insufficient_credits";
  readonly required: number;
  readonly available: number;
  constructor(required: number, available: number) {
    super("insufficient_credits", { message: `insufficient credits: ${required} required, ${available} available` });
    this.required = required;
    this.available = available;
  }

  // Credits have at most 4 places; avoid 0.30000000000000004 in what the client reads.
  get deficit(): number {
    return Math.round((this.required - this.available) * 10000) / 10000;
  }
}

/** A feature the deployment has not configured (e.g. no way to verify tokens). */
export class NotConfiguredError extends AppError {
  readonly kind = "not_configured";
}

// The database (organisations, the ledger) and the processor are the billing service of the spec's 503 row.
const DETAIL_BY_DEPENDENCY: [prefix: string, detail: string][] = [
  ["database", "Billing service unavailable"],
  ["payment processor", "Billing service unavailable"],
  ["identity provider", "Identity provider unavailable"],
  ["language model", "Language model unavailable"],
];

/** A dependency cannot be reached: the client is told which service failed; `what` (with config details) goes to the log only. */
export class UnavailableError extends AppError {
  readonly kind = "unavailable";
  constructor(what: string, options?: { cause?: unknown; detail?: string; message?: string }) {
    const named = DETAIL_BY_DEPENDENCY.find(([prefix]) => what.startsWith(prefix))?.[1];
    const message = options?.message ?? `${what} unavailable`;
    super(options?.detail ?? named ?? "Service unavailable", { cause: options?.cause, message });
  }
}

const MAX_DEPTH = 8;

/** `err` and the errors it wraps through `cause`, outermost first (drizzle wraps driver errors). */
export function* causes(err: unknown): Generator<object> {
  let e: unknown = err;
  for (let depth = 0; e !== null && typeof e === "object" && depth < MAX_DEPTH; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** The first error of a kind in the cause chain of `err`. */
export function findCause<T>(err: unknown, kind: abstract new (...args: never[]) => T): T | undefined {
  for (const e of causes(err)) if (e instanceof kind) return e;
  return undefined;
}
