// Verifies Supabase-style access tokens: HS256 with the project secret or ES256/RS256 via JWKS.
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import type { Config } from "../env.ts";
import { AppError, NotConfiguredError, UnauthenticatedError, UnavailableError } from "../errors.ts";
import { isUuid } from "../lib/uuid.ts";

export interface Principal {
  userId: string;
  email: string | null;
  claims: JWTPayload;
}

const CLOCK_TOLERANCE_S = 30;
const encoder = new TextEncoder();
const invalidToken = () => new UnauthenticatedError("Invalid token");

// One JWKS client per URL per isolate: jose caches keys and refetches on an unknown kid after a cooldown.
const jwksClients = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function jwksFor(url: string): ReturnType<typeof createRemoteJWKSet> {
  let client = jwksClients.get(url);
  if (!client) {
    client = createRemoteJWKSet(new URL(url), {
      cacheMaxAge: 10 * 60_000,
      cooldownDuration: 30_000,
      timeoutDuration: 5_000,
    });
    jwksClients.set(url, client);
  }
  return client;
}

/** Returns the principal of a valid token; throws UnauthenticatedError (401) or NotConfiguredError otherwise. */
export async function verifyAccessToken(token: string, auth: Config["auth"]): Promise<Principal> {
  if (!auth.issuer || (!auth.hsSecret && !auth.jwksUrl)) throw new NotConfiguredError("Auth not configured");
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw invalidToken();
  }
  const options = {
    issuer: auth.issuer,
    audience: auth.audience,
    clockTolerance: CLOCK_TOLERANCE_S,
    requiredClaims: ["exp", "sub"],
  };
  let payload: JWTPayload;
  try {
    // Each key source pins its own algorithms, so a token cannot steer an HMAC check onto a public key.
    if (alg === "HS256" && auth.hsSecret) {
      ({ payload } = await jwtVerify(token, encoder.encode(auth.hsSecret), { ...options, algorithms: ["HS256"] }));
    } else if (auth.jwksUrl && (alg === "ES256" || alg === "RS256")) {
      ({ payload } = await jwtVerify(token, jwksFor(auth.jwksUrl), { ...options, algorithms: ["ES256", "RS256"] }));
    } else {
      throw invalidToken();
    }
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new UnauthenticatedError("Token expired");
    if (err instanceof AppError) throw err;
    // JOSE's specific errors are about the token; a timeout, a bare JOSEError (non-200 key set response)
    // or a network error means the key set could not be fetched: not the caller's fault.
    const keySetUnreachable =
      err instanceof joseErrors.JWKSTimeout ||
      !(err instanceof joseErrors.JOSEError) ||
      err.constructor === joseErrors.JOSEError;
    if (!keySetUnreachable) throw invalidToken();
    throw new UnavailableError("JWKS", { cause: err, detail: "Identity provider unavailable" });
  }
  const sub = payload.sub;
  if (typeof sub !== "string" || !isUuid(sub)) throw invalidToken();
  return {
    userId: sub.toLowerCase(),
    email: typeof payload.email === "string" ? payload.email : null,
    claims: payload,
  };
}

/** Extracts the bearer token; a missing or non-bearer header is "Not authenticated". */
export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  if (!match?.[1]) throw new UnauthenticatedError("Not authenticated");
  return match[1];
}
