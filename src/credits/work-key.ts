// The key paid work is charged under when the client sends Idempotency-Key: one spelling for every route that takes it.

/** Hex digits of a request's digest a key keeps: 128 bits tell requests apart. */
const DIGEST_HEX = 32;

/** What tells two requests under one client key apart: a digest of the request (hex), or the site it names. */
export type RequestPart = { digest: string } | { site: string };

/**
 * `<kind>:<client key>:<request>`, so a retry of the same request replays its charge and another request under the
 * same client key is new work. Without a client key, undefined: every call is new work.
 */
export function workKey(
  kind: "batch" | "report" | "parcel-score",
  clientKey: string | undefined,
  request: RequestPart,
): string | undefined {
  if (clientKey === undefined) return undefined;
  const part = "digest" in request ? request.digest.slice(0, DIGEST_HEX) : request.site;
  return `${kind}:${clientKey}:${part}`;
}
