// What the identity provider's routes share: its store, token signing and verification, and the request guards.
import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWK, type JWTPayload } from "jose";
import { DEV_ANON_KEY, DEV_JWT_SECRET, DEV_SERVICE_ROLE_KEY } from "../dev-keys.ts";
import { DEMO_PASSWORD, DEMO_USERS } from "../../scripts/db/demo-seed.ts";
import { ApiError, bearer, header, str, type Ctx } from "./http.ts";
import { IdpStore, hashPassword, type StoredSession, type StoredUser } from "./store.ts";
import { AUDIENCE, userJson } from "./users.ts";

const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

export interface InviteRecord {
  email: string;
  redirectTo?: string;
  data?: unknown;
  at: string;
}

export interface CoreOptions {
  dataFile?: string | undefined;
  signing: "HS256" | "ES256";
  ttl: number;
  seed: boolean;
  log: (line: string) => void;
}

export type IdpCore = Awaited<ReturnType<typeof createCore>>;

/** Opens the store (seeding the demo users) and returns what every route uses. */
export async function createCore({ dataFile, signing, ttl, seed, log }: CoreOptions) {
  const store = await IdpStore.open(dataFile);
  const hsKey = new TextEncoder().encode(DEV_JWT_SECRET);
  const esPrivate = (await importJWK(store.key.privateJwk, "ES256")) as CryptoKey;
  const esPublic = (await importJWK(store.key.publicJwk, "ES256")) as CryptoKey;
  const jwks: { keys: JWK[] } = { keys: [store.key.publicJwk] };
  const invites: InviteRecord[] = [];
  // Known only after listen() when port 0 picks one; every token mint reads it then.
  let issuer = "";

  if (seed) {
    let changed = false;
    for (const demo of DEMO_USERS) {
      if (store.users.has(demo.id) || store.findUserByEmail(demo.email)) continue;
      store.createUser({
        id: demo.id,
        email: demo.email,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        confirmed: true,
        userMetadata: { display_name: demo.displayName },
      });
      changed = true;
    }
    if (changed) await store.save();
  }

  async function signAccessToken(claims: JWTPayload, alg: "HS256" | "ES256"): Promise<string> {
    const jwt = new SignJWT(claims);
    if (alg === "ES256") return jwt.setProtectedHeader({ alg, typ: "JWT", kid: store.key.kid }).sign(esPrivate);
    return jwt.setProtectedHeader({ alg, typ: "JWT" }).sign(hsKey);
  }

  function accessClaims(user: StoredUser, session: StoredSession, iat: number, exp: number): JWTPayload {
    return {
      aud: AUDIENCE,
      exp,
      iat,
      iss: issuer,
      sub: user.id,
      email: user.email,
      phone: "",
      app_metadata: user.appMetadata,
      user_metadata: user.userMetadata,
      role: "authenticated",
      aal: "aal1",
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    };
  }

  async function sessionJson(user: StoredUser, session: StoredSession): Promise<Record<string, unknown>> {
    const iat = Math.floor(Date.now() / 1000);
    const refresh = store.addRefreshToken(session);
    const accessToken = await signAccessToken(accessClaims(user, session, iat, iat + ttl), signing);
    await store.save();
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: ttl,
      expires_at: iat + ttl,
      refresh_token: refresh.token,
      user: userJson(user),
      weak_password: null,
    };
  }

  async function signIn(user: StoredUser, method: string): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    user.lastSignInAt = now;
    user.updatedAt = now;
    return sessionJson(user, store.createSession(user.id, method));
  }

  function requireApiKey(ctx: Ctx): void {
    const key = header(ctx, "apikey") ?? ctx.query.get("apikey") ?? undefined;
    // Supabase's gateway (not GoTrue) answers these, in its own `{message}` shape.
    if (!key)
      throw new ApiError(401, "no_api_key", "No API key found in request", {
        message: "No API key found in request",
        hint: "No `apikey` request header or url param was found.",
      });
    if (key !== DEV_ANON_KEY && key !== DEV_SERVICE_ROLE_KEY) {
      throw new ApiError(401, "invalid_api_key", "Invalid API key", {
        message: "Invalid API key",
        hint: "Double check your Supabase `anon` or `service_role` API key.",
      });
    }
  }

  async function verifyJwt(token: string): Promise<JWTPayload> {
    try {
      const { alg, kid } = decodeProtectedHeader(token);
      if (alg === "ES256") {
        if (kid !== undefined && kid !== store.key.kid) throw new Error("unknown kid");
        return (await jwtVerify(token, esPublic, { algorithms: ["ES256"] })).payload;
      }
      return (await jwtVerify(token, hsKey, { algorithms: ["HS256"] })).payload;
    } catch (err) {
      throw new ApiError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${(err as Error).message}`);
    }
  }

  /** The signed-in user (and session, when the token names one) behind the bearer token. */
  async function requireUser(
    ctx: Ctx,
  ): Promise<{ user: StoredUser; session: StoredSession | undefined; claims: JWTPayload }> {
    const token = bearer(ctx);
    if (!token) throw new ApiError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    const claims = await verifyJwt(token);
    if (!claims.sub) throw new ApiError(403, "bad_jwt", "invalid claim: missing sub claim");
    const sessionId = str(claims.session_id);
    const session = sessionId ? store.sessions.get(sessionId) : undefined;
    // auth-js maps session_not_found to AuthSessionMissingError, i.e. "signed out".
    if (sessionId && !session)
      throw new ApiError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    const user = store.users.get(claims.sub);
    if (!user) throw new ApiError(403, "user_not_found", "User from sub claim in JWT does not exist");
    return { user, session, claims };
  }

  async function requireAdmin(ctx: Ctx): Promise<void> {
    const token = bearer(ctx);
    if (!token) throw new ApiError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    const claims = await verifyJwt(token);
    if (!ADMIN_ROLES.has(str(claims.role) ?? "")) throw new ApiError(403, "not_admin", "User not allowed");
  }

  return {
    store,
    jwks,
    invites,
    ttl,
    signing,
    log,
    issuer: () => issuer,
    setIssuer(url: string) {
      issuer = url;
    },
    signAccessToken,
    sessionJson,
    signIn,
    requireApiKey,
    requireUser,
    requireAdmin,
  };
}
