// A refused charge becomes the error kind the client sees (402 insufficient_credits).
import { ConflictError, InsufficientCreditsError, NO_ORGANISATION, NotFoundError } from "../errors.ts";
import type { PostResult } from "./ledger.ts";

/** The error the client sees for a debit the ledger refused. */
export function refusalError(result: Exclude<PostResult, { ok: true }>): Error {
  switch (result.reason) {
    case "insufficient_credits":
      return new InsufficientCreditsError(result.required, result.available);
    case "org_not_found":
      // The organisation is gone or the caller no longer belongs to it (a removal this isolate had not seen yet).
      return new NotFoundError(NO_ORGANISATION);
    case "stale":
      return new ConflictError("The credit ledger changed concurrently; retry");
  }
}
