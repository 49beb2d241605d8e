// Mints access tokens inside tests the way the identity provider does (HS256, dev secret).
import { SignJWT, type JWTPayload } from "jose";
import { inject } from "vitest";
import { DEV_JWT_SECRET } from "../../standins/dev-keys.ts";

export interface MintOptions {
  sub?: string;
  email?: string;
  /** Stored as user_metadata.full_name, as the identity provider does. */
  fullName?: string;
  /** Seconds from now; negative mints an expired token. Default 3600. */
  expiresInS?: number;
  /** Identity provider base URL the issuer points at; default the test stack's. */
  authUrl?: string;
  issuer?: string;
  audience?: string;
  secret?: string;
  extra?: JWTPayload;
}

export function authIssuer(): string {
  return `${inject("authUrl")}/auth/v1`;
}

export async function mintToken(opts: MintOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { email: opts.email ?? "someone@example.com", role: "authenticated", ...opts.extra };
  if (opts.fullName) claims.user_metadata = { full_name: opts.fullName };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.sub ?? crypto.randomUUID())
    .setIssuer(opts.issuer ?? (opts.authUrl ? `${opts.authUrl}/auth/v1` : authIssuer()))
    .setAudience(opts.audience ?? "authenticated")
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (opts.expiresInS ?? 3600))
    .sign(new TextEncoder().encode(opts.secret ?? DEV_JWT_SECRET));
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Signs in through the dev identity provider's password grant, as a client would. */
export async function signIn(email: string, password = "demo-password"): Promise<string> {
  const { DEV_ANON_KEY } = await import("../../standins/dev-keys.ts");
  const res = await fetch(`${inject("authUrl")}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: DEV_ANON_KEY, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ access_token: string }>();
  return body.access_token;
}
