// Spending credits: a refused debit becomes the error kind the client sees (402 insufficient_credits).
import { ConflictError, InsufficientCreditsError, NotFoundError } from "../errors.ts";
import { NO_ORGANISATION } from "../orgs/membership.ts";
import { debit, type DebitInput, type LedgerEntry, type PostResult } from "./ledger.ts";

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

/** Turns a ledger refusal into the error the client sees; returns the entry when it was posted. */
export function entryOrThrow(result: PostResult): LedgerEntry {
  if (result.ok) return result.entry;
  throw refusalError(result);
}

/** Debits the organisation or throws 402 with required, available and deficit. */
export async function charge(input: DebitInput): Promise<LedgerEntry> {
  return entryOrThrow(await debit(input));
}
