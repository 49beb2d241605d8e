// The dev identity provider driven by the real @supabase/supabase-js client, as frontends and the API use it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthApiError, createClient } from "@supabase/supabase-js";
import type { SupabaseClient } from "@supabase/supabase-js";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { startIdp } from "./server.ts";
import type { Idp } from "./server.ts";
import { DEV_ANON_KEY, DEV_JWT_SECRET, DEV_SERVICE_ROLE_KEY } from "../dev-keys.ts";
import { DEMO_PASSWORD, DEMO_USERS } from "../../scripts/db/demo-seed.ts";

const secret = new TextEncoder().encode(DEV_JWT_SECRET);
const owner = DEMO_USERS[0];
let clientCount = 0;

function client(url: string, key: string = DEV_ANON_KEY): SupabaseClient {
  // A distinct storage key per client keeps auth-js's per-key caches (and its warning) out of the way.
  return createClient(url, key, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storageKey: `idp-test-${++clientCount}`,
    },
  });
}

describe("dev identity provider (HS256, in memory)", () => {
  let idp: Idp;

  beforeAll(async () => {
    idp = await startIdp({ port: 0 });
  });
  afterAll(async () => {
    await idp.stop();
  });

  it("signs in a demo user; the access token verifies with the dev secret and carries GoTrue's claims", async () => {
    const { data, error } = await client(idp.url).auth.signInWithPassword({
      email: owner.email,
      password: DEMO_PASSWORD,
    });
    expect(error).toBeNull();
    const session = data.session;
    if (!session) throw new Error("no session");
    expect(session.token_type).toBe("bearer");
    expect(session.expires_in).toBe(3600);
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(data.user?.id).toBe(owner.id);
    expect(data.user?.user_metadata.display_name).toBe(owner.displayName);
    expect(data.user?.app_metadata).toEqual({ provider: "email", providers: ["email"] });

    const { payload, protectedHeader } = await jwtVerify(session.access_token, secret, {
      issuer: `${idp.url}/auth/v1`,
      audience: "authenticated",
    });
    expect(protectedHeader.alg).toBe("HS256");
    expect(payload).toMatchObject({
      sub: owner.id,
      email: owner.email,
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
    });
    expect(payload.session_id).toEqual(expect.any(String));
    expect(payload.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    expect(session.expires_at).toBe(payload.exp);
  });

  it("rejects a wrong password with an AuthApiError carrying GoTrue's error code", async () => {
    const { data, error } = await client(idp.url).auth.signInWithPassword({
      email: owner.email,
      password: "not-the-password",
    });
    expect(data.session).toBeNull();
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("invalid_credentials");
    expect(error?.message).toBe("Invalid login credentials");
  });

  it("answers the raw password grant in the documented shape and refuses a missing or wrong apikey", async () => {
    const body = JSON.stringify({ email: owner.email.toUpperCase(), password: DEMO_PASSWORD });
    const ok = await fetch(`${idp.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: DEV_ANON_KEY, "content-type": "application/json" },
      body,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      user: { id: owner.id, aud: "authenticated", role: "authenticated" },
    });

    const noKey = await fetch(`${idp.url}/auth/v1/token?grant_type=password`, { method: "POST", body });
    expect(noKey.status).toBe(401);
    const badKey = await fetch(`${idp.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: "nope" },
      body,
    });
    expect(badKey.status).toBe(401);
    expect(await badKey.json()).toMatchObject({ message: "Invalid API key" });

    const wrong = await fetch(`${idp.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: DEV_ANON_KEY },
      body: JSON.stringify({ email: owner.email, password: "x" }),
    });
    expect(await wrong.json()).toEqual({
      code: 400,
      error_code: "invalid_credentials",
      msg: "Invalid login credentials",
      error: "invalid_grant",
      error_description: "Invalid login credentials",
    });
  });

  it("refreshes a session, rotating the refresh token; reusing the old one fails and ends the session", async () => {
    const sb = client(idp.url);
    const signedIn = await sb.auth.signInWithPassword({ email: owner.email, password: DEMO_PASSWORD });
    const first = signedIn.data.session;
    if (!first) throw new Error("no session");
    // iat has one-second resolution; wait so the new access token must differ.
    await new Promise((r) => setTimeout(r, 1100));
    const refreshed = await sb.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session;
    if (!second) throw new Error("no refreshed session");
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const a = await jwtVerify(first.access_token, secret);
    const b = await jwtVerify(second.access_token, secret);
    expect(b.payload.session_id).toBe(a.payload.session_id);

    const reuse = await client(idp.url).auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reuse.error).toBeInstanceOf(AuthApiError);
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe("refresh_token_already_used");
    // Reuse detection revoked the whole session, so its newest refresh token is dead too.
    const after = await client(idp.url).auth.refreshSession({ refresh_token: second.refresh_token });
    expect(after.error?.status).toBe(400);

    const unknown = await client(idp.url).auth.refreshSession({ refresh_token: "never-issued" });
    expect(unknown.error?.code).toBe("refresh_token_not_found");
  });

  it("signs up a new user with a session, rejects duplicates and weak passwords", async () => {
    const sb = client(idp.url);
    const email = "new.person@example.test";
    const { data, error } = await sb.auth.signUp({
      email,
      password: "s3cret-pass",
      options: { data: { display_name: "New Person" } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(data.user?.identities?.length).toBe(1);
    expect(data.user?.user_metadata.display_name).toBe("New Person");

    const again = await client(idp.url).auth.signInWithPassword({ email, password: "s3cret-pass" });
    expect(again.error).toBeNull();

    const dup = await client(idp.url).auth.signUp({ email, password: "another-pass" });
    expect(dup.error).toBeInstanceOf(AuthApiError);
    expect(dup.error?.status).toBe(422);
    expect(dup.error?.code).toBe("user_already_exists");

    const weak = await client(idp.url).auth.signUp({ email: "weak@example.test", password: "123" });
    expect(weak.error?.status).toBe(422);
    expect(weak.error?.code).toBe("weak_password");
    expect(weak.error?.name).toBe("AuthWeakPasswordError");
  });

  it("returns the user for a bearer token, and signOut revokes the session", async () => {
    const sb = client(idp.url);
    const signedIn = await sb.auth.signInWithPassword({ email: DEMO_USERS[2].email, password: DEMO_PASSWORD });
    const session = signedIn.data.session;
    if (!session) throw new Error("no session");
    const got = await sb.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(DEMO_USERS[2].id);
    expect(got.data.user?.email).toBe(DEMO_USERS[2].email);

    const out = await sb.auth.signOut();
    expect(out.error).toBeNull();
    expect((await sb.auth.getSession()).data.session).toBeNull();
    // The server side ended too: the refresh token is gone and the access token's session no longer exists.
    const refresh = await client(idp.url).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.status).toBe(400);
    const stale = await client(idp.url).auth.getUser(session.access_token);
    expect(stale.error?.name).toBe("AuthSessionMissingError");
  });

  it("refuses expired or foreign tokens at /user", async () => {
    const expired = await idp.issueToken({ sub: owner.id, expiresInS: -60 });
    const res = await client(idp.url).auth.getUser(expired);
    expect(res.error?.status).toBe(403);
    expect(res.error?.code).toBe("bad_jwt");

    const minted = await idp.issueToken({ sub: owner.id });
    expect((await client(idp.url).auth.getUser(minted)).data.user?.id).toBe(owner.id);
    const other = await idp.issueToken({ sub: owner.id, iss: "https://elsewhere.example/auth/v1", aud: "other" });
    const { payload } = await jwtVerify(other, secret);
    expect(payload).toMatchObject({ iss: "https://elsewhere.example/auth/v1", aud: "other", email: owner.email });
  });

  it("serves admin get-user to the service role only", async () => {
    const admin = client(idp.url, DEV_SERVICE_ROLE_KEY).auth.admin;
    const got = await admin.getUserById(owner.id);
    expect(got.error).toBeNull();
    expect(got.data.user?.email).toBe(owner.email);

    const missing = await admin.getUserById("00000000-0000-4000-8000-00000000ffff");
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe("user_not_found");

    const anon = await client(idp.url).auth.admin.getUserById(owner.id);
    expect(anon.error?.status).toBe(403);
    const userToken = await idp.issueToken({ sub: owner.id });
    const asUser = await fetch(`${idp.url}/auth/v1/admin/users/${owner.id}`, {
      headers: { apikey: DEV_ANON_KEY, authorization: `Bearer ${userToken}` },
    });
    expect(asUser.status).toBe(403);
    const noAuth = await fetch(`${idp.url}/auth/v1/admin/users/${owner.id}`, { headers: { apikey: DEV_ANON_KEY } });
    expect(noAuth.status).toBe(401);

    const list = await admin.listUsers();
    expect(list.error).toBeNull();
    expect(list.data.users.map((u) => u.email)).toEqual(expect.arrayContaining(DEMO_USERS.map((u) => u.email)));
  });

  it("records invitations, creates the invited user, and lets the invitee claim the account by signing up", async () => {
    const admin = client(idp.url, DEV_SERVICE_ROLE_KEY).auth.admin;
    const email = "invitee@example.test";
    const { data, error } = await admin.inviteUserByEmail(email, {
      redirectTo: "http://localhost:5173/welcome",
      data: { org: "demo-team" },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.invited_at).toEqual(expect.any(String));
    expect(idp.invites).toContainEqual({
      email,
      redirectTo: "http://localhost:5173/welcome",
      data: { org: "demo-team" },
      at: expect.any(String),
    });

    const refused = await client(idp.url).auth.admin.inviteUserByEmail("sneaky@example.test");
    expect(refused.error?.status).toBe(403);
    expect(idp.invites.some((i) => i.email === "sneaky@example.test")).toBe(false);

    const claimed = await client(idp.url).auth.signUp({ email, password: "invited-pass" });
    expect(claimed.error).toBeNull();
    expect(claimed.data.user?.id).toBe(data.user?.id);
    expect(claimed.data.user?.user_metadata.org).toBe("demo-team");

    const existing = await admin.inviteUserByEmail(owner.email);
    expect(existing.error?.status).toBe(422);
  });

  it("speaks CORS, health, JWKS and JSON errors", async () => {
    const pre = await fetch(`${idp.url}/auth/v1/token?grant_type=password`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(pre.headers.get("access-control-allow-headers")).toContain("x-supabase-api-version");

    const health = await fetch(`${idp.url}/auth/v1/health`);
    expect(await health.json()).toEqual({ name: "GoTrue", version: "dev", description: "dev identity provider" });
    expect(health.headers.get("access-control-allow-origin")).toBe("*");

    const jwks = (await (await fetch(`${idp.url}/auth/v1/.well-known/jwks.json`)).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: expect.any(String) });
    expect(jwks.keys[0]).not.toHaveProperty("d");

    const notFound = await fetch(`${idp.url}/auth/v1/nowhere`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ code: 404, error_code: "not_found" });

    const badJson = await fetch(`${idp.url}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: DEV_ANON_KEY, "content-type": "application/json" },
      body: "{nope",
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 400, error_code: "bad_json" });
  });
});

describe("dev identity provider (ES256)", () => {
  let idp: Idp;

  beforeAll(async () => {
    idp = await startIdp({ port: 0, signing: "ES256" });
  });
  afterAll(async () => {
    await idp.stop();
  });

  it("signs access tokens with the key its JWKS endpoint serves", async () => {
    const { data, error } = await client(idp.url).auth.signInWithPassword({
      email: owner.email,
      password: DEMO_PASSWORD,
    });
    expect(error).toBeNull();
    const token = data.session?.access_token ?? "";
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", kid: idp.jwks.keys[0]?.kid });
    const keySet = createRemoteJWKSet(new URL(`${idp.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, keySet, { issuer: `${idp.url}/auth/v1`, audience: "authenticated" });
    expect(payload.sub).toBe(owner.id);
    await expect(jwtVerify(token, secret)).rejects.toThrow();

    // issueToken can still mint the other algorithm, e.g. to test a verifier that accepts only one.
    const hs = await idp.issueToken({ sub: owner.id, alg: "HS256" });
    expect((await jwtVerify(hs, secret)).protectedHeader.alg).toBe("HS256");
    // And the server itself accepts its ES256 tokens at /user.
    expect((await client(idp.url).auth.getUser(token)).data.user?.id).toBe(owner.id);
  });
});

describe("dev identity provider persistence", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "idp-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps signed-up users, refresh tokens and the signing key across a restart", async () => {
    const dataFile = join(dir, "nested", "idp.json");
    const first = await startIdp({ port: 0, dataFile, signing: "ES256" });
    const signedUp = await client(first.url).auth.signUp({ email: "keeper@example.test", password: "keep-me-pass" });
    expect(signedUp.error).toBeNull();
    const refreshToken = signedUp.data.session?.refresh_token ?? "";
    const kid = first.jwks.keys[0]?.kid;
    await first.stop();

    const second = await startIdp({ port: 0, dataFile, signing: "ES256" });
    try {
      expect(second.jwks.keys[0]?.kid).toBe(kid);
      const again = await client(second.url).auth.signInWithPassword({
        email: "keeper@example.test",
        password: "keep-me-pass",
      });
      expect(again.error).toBeNull();
      expect(again.data.user?.id).toBe(signedUp.data.user?.id);
      const refreshed = await client(second.url).auth.refreshSession({ refresh_token: refreshToken });
      expect(refreshed.error).toBeNull();
      // Demo users are seeded once, not duplicated on every start.
      const list = await client(second.url, DEV_SERVICE_ROLE_KEY).auth.admin.listUsers();
      expect(list.data.users.filter((u) => u.email === owner.email)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
