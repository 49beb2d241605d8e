// The shared auth suite: every route the OpenAPI document marks as secured refuses bad credentials.
import { SELF, createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SignJWT, UnsecuredJWT, generateKeyPair } from "jose";
import { createApp } from "../../src/app.ts";
import { DEV_ANON_KEY } from "../../standins/dev-keys.ts";
import { bearer, mintToken, signIn } from "../support/tokens.ts";
import { NO_ORGANISATION } from "../../src/orgs/membership.ts";
import { createTeamOrg, withDb } from "./helpers/billing.ts";

interface Operation {
  method: string;
  path: string;
  /** What the route's middleware requires of the caller (http/access.ts), from `x-access`. */
  access?: "authenticated" | "organisation" | "admin";
}

async function securedOperations(): Promise<Operation[]> {
  const doc = await (await SELF.fetch("https://api.test/openapi.json")).json<{
    paths: Record<string, Record<string, { security?: unknown[]; "x-access"?: Operation["access"] }>>;
  }>();
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.security && op.security.length > 0) {
        ops.push({
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]+\}/g, crypto.randomUUID()),
          access: op["x-access"],
        });
      }
    }
  }
  return ops;
}

const ops = await securedOperations();

async function call(op: Operation, headers: Record<string, string>): Promise<Response> {
  return SELF.fetch(`https://api.test${op.path}`, { method: op.method, headers });
}

async function expect401(res: Response, detail: string): Promise<void> {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ detail });
  expect(res.headers.get("www-authenticate")).toBe("Bearer");
}

describe("every secured route", () => {
  it("the document lists secured routes, /health is not one of them", () => {
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.some((o) => o.path === "/health")).toBe(false);
  });

  describe.each(ops)("$method $path", (op) => {
    it("no Authorization header -> Not authenticated", async () => {
      await expect401(await call(op, {}), "Not authenticated");
    });
    it("a non-bearer scheme -> Not authenticated", async () => {
      await expect401(await call(op, { Authorization: "Basic dXNlcjpwYXNz" }), "Not authenticated");
    });
    it("garbage token -> Invalid token", async () => {
      await expect401(await call(op, bearer("not.a.jwt")), "Invalid token");
    });
    it("wrong signature -> Invalid token", async () => {
      await expect401(
        await call(op, bearer(await mintToken({ secret: "another-projects-secret-0123456789abcdef" }))),
        "Invalid token",
      );
    });
    it("other issuer -> Invalid token", async () => {
      await expect401(
        await call(op, bearer(await mintToken({ issuer: "https://other.supabase.co/auth/v1" }))),
        "Invalid token",
      );
    });
    it("expired -> Token expired", async () => {
      await expect401(await call(op, bearer(await mintToken({ expiresInS: -120 }))), "Token expired");
    });
  });
});

describe("every route that needs an organisation", () => {
  const needOrg = ops.filter((o) => o.access === "organisation" || o.access === "admin");

  it("the document says which routes need one, and every secured route says what it needs", () => {
    expect(needOrg.length).toBeGreaterThan(0);
    expect(ops.every((o) => o.access !== undefined)).toBe(true);
  });

  describe.each(needOrg)("$method $path", (op) => {
    it("a caller without an organisation -> 404 saying to call post-signup", async () => {
      const res = await call(op, bearer(await mintToken()));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: NO_ORGANISATION });
    });
  });
});

describe("every admin route", () => {
  const adminOnly = ops.filter((o) => o.access === "admin");

  it("the document marks the admin routes", () => {
    expect(adminOnly.length).toBeGreaterThan(0);
  });

  describe.each(adminOnly)("$method $path", (op) => {
    it("a member -> 403 Billing admin access required", async () => {
      const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
      const res = await call(op, bearer(org.users.member.token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: "Billing admin access required" });
    });
  });
});

describe("token checks", () => {
  const geocode = { method: "GET", path: "/geocode?suburb=Newtown" };

  it("wrong audience -> Invalid token", async () => {
    await expect401(await call(geocode, bearer(await mintToken({ audience: "anon" }))), "Invalid token");
  });
  it("alg none -> Invalid token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = new UnsecuredJWT({ role: "authenticated" })
      .setSubject(crypto.randomUUID())
      .setIssuer(`${env.SUPABASE_URL}/auth/v1`)
      .setAudience("authenticated")
      .setExpirationTime(now + 600)
      .encode();
    await expect401(await call(geocode, bearer(token)), "Invalid token");
  });
  it("the anon key used as a bearer -> Invalid token", async () => {
    await expect401(await call(geocode, bearer(DEV_ANON_KEY)), "Invalid token");
  });
  it("an ES256 token from a key the JWKS does not hold (unknown kid) -> Invalid token", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ role: "authenticated" })
      .setProtectedHeader({ alg: "ES256", kid: "not-a-published-key" })
      .setSubject(crypto.randomUUID())
      .setIssuer(`${env.SUPABASE_URL}/auth/v1`)
      .setAudience("authenticated")
      .setExpirationTime(now + 600)
      .sign(privateKey);
    await expect401(await call(geocode, bearer(token)), "Invalid token");
  });
  it("an HS256 token cannot be checked against the JWKS public key (algorithm confusion) -> Invalid token", async () => {
    const jwks = await (await fetch(`${env.SUPABASE_URL}/auth/v1/.well-known/jwks.json`)).json<{
      keys: { x: string; kid: string }[];
    }>();
    const token = await mintToken({ secret: JSON.stringify(jwks.keys[0]) });
    await expect401(await call(geocode, bearer(token)), "Invalid token");
  });
  it("a token without a UUID subject -> Invalid token", async () => {
    await expect401(await call(geocode, bearer(await mintToken({ sub: "not-a-uuid" }))), "Invalid token");
  });
  it("expiry within the clock tolerance is still accepted", async () => {
    const res = await call(geocode, bearer(await mintToken({ expiresInS: -5 })));
    expect(res.status).not.toBe(401);
  });
  it("an HS256 token signed with the project secret is accepted", async () => {
    const res = await call(geocode, bearer(await mintToken()));
    expect(res.status).not.toBe(401);
  });
  it("an ES256 token from a real sign-in is verified through the JWKS", async () => {
    const token = await signIn("owner@demo.test");
    expect(JSON.parse(atob(token.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/"))).alg).toBe("ES256");
    const res = await call(geocode, bearer(token));
    expect(res.status).not.toBe(401);
  });
  it("a JWKS that cannot be fetched -> 503 Identity provider unavailable, not a blame on the token", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const closed = "http://127.0.0.1:9";
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ role: "authenticated" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setSubject(crypto.randomUUID())
      .setIssuer(`${closed}/auth/v1`)
      .setAudience("authenticated")
      .setExpirationTime(now + 600)
      .sign(privateKey);
    const res = await createApp().fetch(
      new Request("https://api.test/geocode?suburb=Newtown", { headers: bearer(token) }),
      { ...env, SUPABASE_URL: closed },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Identity provider unavailable" });
  });
  it("neither secret nor JWKS configured -> 500 Auth not configured", async () => {
    const app = createApp();
    const res = await app.fetch(
      new Request("https://api.test/geocode?suburb=Newtown", { headers: bearer(await mintToken()) }),
      { ...env, SUPABASE_JWT_SECRET: "", AUTH_JWKS: "false" },
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: "Auth not configured" });
  });
});
