// Error envelopes through the real app: 422 shape for query and body, malformed JSON, 404, CORS.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, mintToken } from "../support/tokens.ts";
import { createTeamOrg, withDb } from "./helpers/billing.ts";

let auth: Record<string, string>;
beforeAll(async () => {
  auth = bearer(await mintToken());
});

describe("validation errors", () => {
  it("a too-short query parameter gives the spec's 422 body", async () => {
    const res = await SELF.fetch("https://api.test/geocode?suburb=N", { headers: auth });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          type: "string_too_short",
          loc: ["query", "suburb"],
          msg: "String should have at least 2 characters",
          input: "N",
          ctx: { min_length: 2 },
        },
      ],
    });
  });

  it("a missing query parameter is 'Field required'", async () => {
    const res = await SELF.fetch("https://api.test/geocode", { headers: auth });
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { type: string; loc: string[]; msg: string }[] }>();
    expect(body.detail[0]).toMatchObject({ type: "missing", loc: ["query", "suburb"], msg: "Field required" });
  });
});

describe("malformed JSON", () => {
  it("is a 422 json_invalid at body, never a 500", async () => {
    // Bodies are validated after authorisation (docs/design.md section 5), so the caller is an admin.
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const res = await SELF.fetch("https://api.test/billing/invite", {
      method: "POST",
      headers: { ...bearer(org.users.admin.token), "Content-Type": "application/json" },
      body: '{"email": "a@b.example",',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: [{ type: "json_invalid", loc: ["body"], msg: "JSON decode error" }],
    });
  });
});

describe("not found", () => {
  it("an unknown suburb names itself", async () => {
    const res = await SELF.fetch("https://api.test/geocode?suburb=Atlantis", { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Suburb not found: Atlantis" });
  });
});

describe("CORS", () => {
  it("allows a configured origin and exposes X-Session-Id and Retry-After", async () => {
    const res = await SELF.fetch("https://api.test/health", { headers: { Origin: "https://app.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const exposed = res.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
    expect(exposed).toContain("x-session-id");
    expect(exposed).toContain("retry-after");
  });

  it("allows any port of a host configured with :*", async () => {
    const res = await SELF.fetch("https://api.test/health", {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });

  it("does not allow other origins", async () => {
    const res = await SELF.fetch("https://api.test/health", { headers: { Origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("request ids", () => {
  it("every response, errors included, carries X-Request-Id", async () => {
    const ok = await SELF.fetch("https://api.test/health");
    const missing = await SELF.fetch("https://api.test/nope");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get("x-request-id")).not.toBe(missing.headers.get("x-request-id"));
  });
});

describe("docs", () => {
  it("serves a reference of every operation from the Worker itself, loading nothing from elsewhere", async () => {
    const res = await SELF.fetch("https://api.test/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('href="/openapi.json"');
    for (const op of ["/geocode", "/batch/upload", "/report/generate", "/chat", "/billing/invite"])
      expect(html).toContain(`<code>${op}</code>`);
    // No script and no other origin: it works with no CDN and under the page's CSP.
    expect(html).not.toMatch(/<script|https?:\/\/(?!api\.test)/);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).not.toContain("script-src");
  });

  it("security headers on HTML and JSON responses, errors included", async () => {
    for (const path of ["/docs", "/health", "/openapi.json", "/nope", "/billing/org"]) {
      const res = await SELF.fetch(`https://api.test${path}`);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(res.headers.get("strict-transport-security"), path).toContain("max-age=");
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
    }
  });
});
