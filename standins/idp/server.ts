// Dev identity provider: the subset of Supabase's GoTrue HTTP API that our clients and the API use,
// so the real @supabase/supabase-js signs in, refreshes and signs up against it unchanged.
// Run alone: node_modules/.bin/node standins/idp/server.ts  (port 54321, users kept in .data/idp.json)
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { JWK, JWTPayload } from "jose";
import { DEMO_PASSWORD, DEMO_USERS } from "../../scripts/db/demo-seed.ts";
import { adminRoutes } from "./admin-routes.ts";
import { authRoutes } from "./auth-routes.ts";
import { createCore, type InviteRecord } from "./core.ts";
import { ApiError, serve, type Ctx, type Reply } from "./http.ts";
import { AUDIENCE } from "./users.ts";

export type { InviteRecord };

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

export interface Idp {
  url: string;
  port: number;
  stop(): Promise<void>;
  issueToken(claims: IssueTokenClaims): Promise<string>;
  invites: InviteRecord[];
  jwks: { keys: JWK[] };
}

export async function startIdp(opts: IdpOptions = {}): Promise<Idp> {
  const host = opts.host ?? "127.0.0.1";
  const signing = opts.signing ?? "HS256";
  const ttl = opts.accessTokenTtlS ?? 3600;
  const log = opts.log ?? (() => undefined);
  const core = await createCore({ dataFile: opts.dataFile, signing, ttl, seed: opts.seed ?? true, log });
  const { store, signAccessToken } = core;
  const { tokenGrant, signup, getUser, updateUser, logout } = authRoutes(core);
  const { invite, adminListUsers, adminCreateUser, adminUser } = adminRoutes(core);

  async function route(ctx: Ctx): Promise<Reply> {
    const p = ctx.path.replace(/\/+$/, "") || "/";
    const m = ctx.method;
    if (m === "GET" && p === "/auth/v1/health")
      return { status: 200, body: { version: "dev", name: "GoTrue", description: "dev identity provider" } };
    if (m === "GET" && p === "/auth/v1/.well-known/jwks.json")
      return { status: 200, body: core.jwks, headers: { "cache-control": "public, max-age=600" } };
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

  const server = serve(route);
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 54321, host, () => resolve((server.address() as AddressInfo).port));
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = (opts.publicUrl ?? `http://${urlHost}:${port}`).replace(/\/+$/, "");
  core.setIssuer(`${url}/auth/v1`);
  const issuer = core.issuer();

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

  return { url, port, stop, issueToken, invites: core.invites, jwks: core.jwks };
}

// Started directly (not imported): serve on the conventional local-stack port with a persistent store.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = process.env;
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
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
