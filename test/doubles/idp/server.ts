// Dev identity provider: the subset of Supabase's GoTrue HTTP API that our clients and the API use,
// so the real @supabase/supabase-js signs in, refreshes and signs up against it unchanged.
// Run alone: node_modules/.bin/node test/doubles/idp/server.ts  (port 54321, users kept in .data/idp.json)
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import type { CryptoKey, JWK, JWTPayload } from "jose";
import { DEMO_PASSWORD, DEMO_USERS, DEV_ANON_KEY, DEV_JWT_SECRET, DEV_SERVICE_ROLE_KEY } from "../secrets.ts";
import { IdpStore, hashPassword, normaliseEmail, verifyPassword } from "./store.ts";
import type { StoredSession, StoredUser } from "./store.ts";

export interface IdpOptions {
  /** 0 = random free port. Default 54321. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** JSON file holding users, sessions and the signing key; in memory when absent. */
  dataFile?: string;
  /** Base URL clients use; tokens carry iss `{publicUrl}/auth/v1`. Default http://127.0.0.1:<port>. */
  publicUrl?: string;
  /** Access-token signing: HS256 with DEV_JWT_SECRET (Supabase's default) or ES256 with the JWKS key. */
  signing?: "HS256" | "ES256";
  /** Default true: DEMO_USERS with DEMO_PASSWORD. */
  seed?: boolean;
  /** Default 3600. */
  accessTokenTtlS?: number;
  /** Receives one line per notable event (invites, sign-ups); silent when absent. */
  log?: (line: string) => void;
}

export interface IssueTokenClaims {
  sub: string;
  email?: string;
  /** Negative values mint an already-expired token. Default: accessTokenTtlS. */
  expiresInS?: number;
  iss?: string;
  aud?: string;
  alg?: "HS256" | "ES256";
}

export interface InviteRecord {
  email: string;
  redirectTo?: string;
  data?: unknown;
  at: string;
}

export interface Idp {
  url: string;
  port: number;
  stop(): Promise<void>;
  issueToken(claims: IssueTokenClaims): Promise<string>;
  invites: InviteRecord[];
  jwks: { keys: JWK[] };
}

const AUDIENCE = "authenticated";
const MIN_PASSWORD_LENGTH = 6;
const MAX_BODY_BYTES = 1024 * 1024;
const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);
const ALLOWED_HEADERS =
  "authorization, apikey, content-type, x-client-info, x-supabase-api-version, x-retry-count, accept, accept-profile, content-profile, prefer";
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An error answered in GoTrue's legacy error shape, which auth-js parses via `error_code`. */
class ApiError extends Error {
  readonly status: number;
  readonly errorCode: string;
  readonly extra: Record<string, unknown>;
  constructor(status: number, errorCode: string, msg: string, extra: Record<string, unknown> = {}) {
    super(msg);
    this.status = status;
    this.errorCode = errorCode;
    this.extra = extra;
  }
}

function grantError(errorCode: string, msg: string): ApiError {
  // Older clients read the OAuth-style `error`/`error_description` pair, newer ones `error_code`/`msg`.
  return new ApiError(400, errorCode, msg, { error: "invalid_grant", error_description: msg });
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function bearer(ctx: Ctx): string | undefined {
  const m = /^bearer\s+(\S+)\s*$/i.exec(header(ctx, "authorization") ?? "");
  return m?.[1];
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, "request_too_large", "Request body too large");
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, "bad_json", `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed)) throw new ApiError(400, "bad_json", "Request body must be a JSON object");
  return parsed;
}

function userJson(u: StoredUser): Record<string, unknown> {
  return {
    id: u.id,
    aud: AUDIENCE,
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.emailConfirmedAt ?? undefined,
    phone: "",
    confirmed_at: u.emailConfirmedAt ?? undefined,
    invited_at: u.invitedAt ?? undefined,
    last_sign_in_at: u.lastSignInAt ?? undefined,
    app_metadata: u.appMetadata,
    user_metadata: u.userMetadata,
    // A confirmed e-mail user has one identity; frontends read `identities.length === 0` as "already registered".
    identities: u.emailConfirmedAt
      ? [
          {
            identity_id: u.id,
            id: u.id,
            user_id: u.id,
            identity_data: { email: u.email, email_verified: true, phone_verified: false, sub: u.id },
            provider: "email",
            last_sign_in_at: u.lastSignInAt ?? u.createdAt,
            created_at: u.createdAt,
            updated_at: u.updatedAt,
            email: u.email,
          },
        ]
      : [],
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    is_anonymous: false,
  };
}

function checkPassword(password: unknown): string {
  if (typeof password !== "string" || password === "")
    throw new ApiError(422, "validation_failed", "Signup requires a valid password");
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ApiError(422, "weak_password", `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ["length"] },
    });
  }
  return password;
}

function checkEmail(email: unknown): string {
  if (typeof email !== "string" || !EMAIL_RE.test(email.trim())) {
    throw new ApiError(400, "validation_failed", "Unable to validate email address: invalid format");
  }
  return normaliseEmail(email);
}

function metadata(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

export async function startIdp(opts: IdpOptions = {}): Promise<Idp> {
  const host = opts.host ?? "127.0.0.1";
  const signing = opts.signing ?? "HS256";
  const ttl = opts.accessTokenTtlS ?? 3600;
  const log = opts.log ?? (() => undefined);
  const store = await IdpStore.open(opts.dataFile);
  const hsKey = new TextEncoder().encode(DEV_JWT_SECRET);
  const esPrivate = (await importJWK(store.key.privateJwk, "ES256")) as CryptoKey;
  const esPublic = (await importJWK(store.key.publicJwk, "ES256")) as CryptoKey;
  const jwks = { keys: [store.key.publicJwk] };
  const invites: InviteRecord[] = [];

  if (opts.seed ?? true) {
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

  // Known only after listen() when port 0 picks one; every token mint reads it then.
  let issuer = "";

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

  // --- handlers -------------------------------------------------------------------------------

  async function tokenGrant(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const grant = ctx.query.get("grant_type");
    if (grant === "password") {
      const email = str(ctx.body.email);
      const password = str(ctx.body.password);
      if (!email || !password) throw grantError("validation_failed", "missing email or phone");
      const user = store.findUserByEmail(email);
      const ok = await verifyPassword(password, user?.passwordHash ?? null);
      if (!user || !ok) throw grantError("invalid_credentials", "Invalid login credentials");
      if (!user.emailConfirmedAt) throw grantError("email_not_confirmed", "Email not confirmed");
      return { status: 200, body: await signIn(user, "password") };
    }
    if (grant === "refresh_token") {
      const token = str(ctx.body.refresh_token);
      if (!token) throw grantError("validation_failed", "refresh_token required");
      const stored = store.refreshTokens.get(token);
      if (!stored) throw grantError("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
      if (stored.revoked) {
        // Reuse of a rotated token means it leaked: end the whole session, as GoTrue's reuse detection does.
        store.deleteSession(stored.sessionId);
        await store.save();
        throw grantError("refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
      const session = store.sessions.get(stored.sessionId);
      const user = store.users.get(stored.userId);
      if (!session || !user) throw grantError("session_not_found", "Invalid Refresh Token: Session Expired");
      stored.revoked = true;
      return { status: 200, body: await sessionJson(user, session) };
    }
    throw new ApiError(400, "validation_failed", `unsupported_grant_type: ${grant ?? "(none)"}`, {
      error: "unsupported_grant_type",
    });
  }

  async function signup(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const email = checkEmail(ctx.body.email);
    const password = checkPassword(ctx.body.password);
    const data = metadata(ctx.body.data);
    const existing = store.findUserByEmail(email);
    if (existing?.emailConfirmedAt) throw new ApiError(422, "user_already_exists", "User already registered");
    let user: StoredUser;
    if (existing) {
      // An invited (unconfirmed) user signing up claims the account, as autoconfirming GoTrue does.
      existing.passwordHash = await hashPassword(password);
      existing.userMetadata = { ...existing.userMetadata, ...data };
      existing.emailConfirmedAt = new Date().toISOString();
      user = existing;
    } else {
      user = store.createUser({
        email,
        passwordHash: await hashPassword(password),
        confirmed: true,
        userMetadata: data,
      });
    }
    log(`[idp] sign-up ${user.email} (${user.id})`);
    return { status: 200, body: await signIn(user, "password") };
  }

  async function getUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user } = await requireUser(ctx);
    return { status: 200, body: userJson(user) };
  }

  async function updateUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user } = await requireUser(ctx);
    if (ctx.body.password !== undefined) user.passwordHash = await hashPassword(checkPassword(ctx.body.password));
    if (ctx.body.email !== undefined) {
      const email = checkEmail(ctx.body.email);
      const other = store.findUserByEmail(email);
      if (other && other.id !== user.id)
        throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
      user.email = email;
    }
    if (isRecord(ctx.body.data)) {
      // GoTrue merges metadata, and a null value removes the key.
      const merged: Record<string, unknown> = { ...user.userMetadata, ...ctx.body.data };
      for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
      user.userMetadata = merged;
    }
    user.updatedAt = new Date().toISOString();
    await store.save();
    return { status: 200, body: userJson(user) };
  }

  async function logout(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user, session } = await requireUser(ctx);
    const scope = ctx.query.get("scope") ?? "global";
    for (const s of [...store.sessions.values()]) {
      if (s.userId !== user.id) continue;
      const isCurrent = s.id === session?.id;
      if (scope === "global" || (scope === "local" && isCurrent) || (scope === "others" && !isCurrent))
        store.deleteSession(s.id);
    }
    await store.save();
    return { status: 204 };
  }

  async function invite(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const email = checkEmail(ctx.body.email);
    const data = ctx.body.data;
    let user = store.findUserByEmail(email);
    if (user?.emailConfirmedAt)
      throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
    const now = new Date().toISOString();
    if (user) {
      user.invitedAt = now;
      user.updatedAt = now;
      if (isRecord(data)) user.userMetadata = { ...user.userMetadata, ...data };
    } else {
      user = store.createUser({
        email,
        passwordHash: null,
        confirmed: false,
        invited: true,
        userMetadata: metadata(data),
      });
    }
    await store.save();
    const redirectTo = ctx.query.get("redirect_to") ?? str(ctx.body.redirect_to);
    invites.push({ email, ...(redirectTo ? { redirectTo } : {}), ...(data !== undefined ? { data } : {}), at: now });
    log(
      `[idp] invite e-mail "sent" to ${email}${redirectTo ? ` (redirect ${redirectTo})` : ""}; they can accept by signing up with that address`,
    );
    return { status: 200, body: userJson(user) };
  }

  async function adminListUsers(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const page = Math.max(1, Number(ctx.query.get("page") ?? "1") || 1);
    const perPage = Math.max(1, Math.min(1000, Number(ctx.query.get("per_page") ?? "50") || 50));
    const all = [...store.users.values()].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
    const users = all.slice((page - 1) * perPage, page * perPage).map(userJson);
    const lastPage = Math.max(1, Math.ceil(all.length / perPage));
    const base = `${issuer}/admin/users?per_page=${perPage}`;
    const links = [`<${base}&page=${lastPage}>; rel="last"`];
    if (page < lastPage) links.unshift(`<${base}&page=${page + 1}>; rel="next"`);
    return {
      status: 200,
      body: { users, aud: AUDIENCE },
      headers: { "x-total-count": String(all.length), link: links.join(", ") },
    };
  }

  async function adminCreateUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const email = checkEmail(ctx.body.email);
    if (store.findUserByEmail(email))
      throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
    const password = ctx.body.password === undefined ? null : checkPassword(ctx.body.password);
    const id = str(ctx.body.id);
    if (id && store.users.has(id)) throw new ApiError(422, "user_already_exists", "User already registered");
    const user = store.createUser({
      ...(id ? { id } : {}),
      email,
      passwordHash: password === null ? null : await hashPassword(password),
      confirmed: ctx.body.email_confirm === true,
      userMetadata: metadata(ctx.body.user_metadata ?? ctx.body.data),
    });
    if (isRecord(ctx.body.app_metadata)) user.appMetadata = { ...user.appMetadata, ...ctx.body.app_metadata };
    await store.save();
    return { status: 200, body: userJson(user) };
  }

  async function adminUser(ctx: Ctx, id: string): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const user = store.users.get(id);
    if (!user) throw new ApiError(404, "user_not_found", "User not found");
    if (ctx.method === "DELETE") {
      store.deleteUser(id);
      await store.save();
    }
    return { status: 200, body: userJson(user) };
  }

  async function route(ctx: Ctx): Promise<Reply> {
    const p = ctx.path.replace(/\/+$/, "") || "/";
    const m = ctx.method;
    if (m === "GET" && p === "/auth/v1/health")
      return { status: 200, body: { version: "dev", name: "GoTrue", description: "dev identity provider" } };
    if (m === "GET" && p === "/auth/v1/.well-known/jwks.json")
      return { status: 200, body: jwks, headers: { "cache-control": "public, max-age=600" } };
    if (m === "GET" && p === "/auth/v1/settings") {
      return {
        status: 200,
        body: {
          external: { email: true, phone: false, anonymous_users: false },
          disable_signup: false,
          mailer_autoconfirm: true,
          phone_autoconfirm: false,
          sms_provider: "",
          saml_enabled: false,
        },
      };
    }
    if (m === "POST" && p === "/auth/v1/token") return tokenGrant(ctx);
    if (m === "POST" && p === "/auth/v1/signup") return signup(ctx);
    if (m === "GET" && p === "/auth/v1/user") return getUser(ctx);
    if (m === "PUT" && p === "/auth/v1/user") return updateUser(ctx);
    if (m === "POST" && p === "/auth/v1/logout") return logout(ctx);
    if (m === "POST" && p === "/auth/v1/invite") return invite(ctx);
    if (m === "GET" && p === "/auth/v1/admin/users") return adminListUsers(ctx);
    if (m === "POST" && p === "/auth/v1/admin/users") return adminCreateUser(ctx);
    const userPath = /^\/auth\/v1\/admin\/users\/([^/]+)$/.exec(p);
    if (userPath?.[1] && (m === "GET" || m === "DELETE")) return adminUser(ctx, decodeURIComponent(userPath[1]));
    throw new ApiError(404, "not_found", `Not found: ${m} ${ctx.path}`);
  }

  function cors(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader("access-control-allow-origin", req.headers.origin ?? "*");
    res.setHeader("vary", "Origin");
    res.setHeader("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
    // Echo what the browser asks for so newer supabase-js headers keep working without a release here.
    res.setHeader("access-control-allow-headers", req.headers["access-control-request-headers"] ?? ALLOWED_HEADERS);
    res.setHeader("access-control-expose-headers", "x-total-count, link, x-supabase-api-version");
    res.setHeader("access-control-max-age", "600");
  }

  function send(res: ServerResponse, reply: Reply): void {
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    if (reply.body === undefined) {
      res.writeHead(reply.status).end();
      return;
    }
    res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(reply.body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    cors(req, res);
    try {
      const method = req.method ?? "GET";
      if (method === "OPTIONS") {
        send(res, { status: 204 });
        return;
      }
      const url = new URL(req.url ?? "/", "http://idp.invalid");
      const body = method === "POST" || method === "PUT" ? await readBody(req) : {};
      send(res, await route({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body }));
    } catch (err) {
      if (err instanceof ApiError) {
        send(res, {
          status: err.status,
          body: { code: err.status, error_code: err.errorCode, msg: err.message, ...err.extra },
        });
        return;
      }
      console.error("[idp] internal error", err);
      send(res, { status: 500, body: { code: 500, error_code: "unexpected_failure", msg: "Internal server error" } });
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 54321, host, () => resolve((server.address() as AddressInfo).port));
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = (opts.publicUrl ?? `http://${urlHost}:${port}`).replace(/\/+$/, "");
  issuer = `${url}/auth/v1`;

  async function issueToken(claims: IssueTokenClaims): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (claims.expiresInS ?? ttl);
    const known = store.users.get(claims.sub);
    // A real session row makes minted tokens behave like signed-in ones at /user and /logout.
    const session = store.createSession(claims.sub, "password");
    await store.save();
    const payload: JWTPayload = {
      aud: claims.aud ?? AUDIENCE,
      exp,
      iat: Math.min(now, exp - 1),
      iss: claims.iss ?? issuer,
      sub: claims.sub,
      email: claims.email ?? known?.email ?? "",
      phone: "",
      app_metadata: known?.appMetadata ?? { provider: "email", providers: ["email"] },
      user_metadata: known?.userMetadata ?? {},
      role: "authenticated",
      aal: "aal1",
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    };
    return signAccessToken(payload, claims.alg ?? signing);
  }

  async function stop(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    });
    await store.flush();
  }

  return { url, port, stop, issueToken, invites, jwks };
}

// Started directly (not imported): serve on the conventional local-stack port with a persistent store.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = process.env;
  const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
  const idp = await startIdp({
    port: Number(env.IDP_PORT ?? "54321"),
    host: env.IDP_HOST ?? "127.0.0.1",
    dataFile: env.IDP_DATA_FILE ?? `${repoRoot}.data/idp.json`,
    ...(env.IDP_PUBLIC_URL ? { publicUrl: env.IDP_PUBLIC_URL } : {}),
    signing: env.IDP_SIGNING === "ES256" ? "ES256" : "HS256",
    log: (line) => console.log(line),
  });
  console.log(
    `[idp] dev identity provider on ${idp.url}/auth/v1 (demo users: ${DEMO_USERS.map((u) => u.email).join(", ")} / ${DEMO_PASSWORD})`,
  );
  const shutdown = (): void => {
    void idp.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
