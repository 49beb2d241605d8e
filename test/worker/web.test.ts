// The web workspace through the Worker: its page and files from static assets, its own CSP, API 404s kept.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("the web workspace", () => {
  it("GET / is the app's page with a CSP of its own that lets it reach the identity provider", async () => {
    const res = await SELF.fetch("https://api.test/");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(await res.text()).toContain('<div id="root">');
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:\d+/);
    expect(csp).toContain("worker-src 'self' blob:");
  });

  it("the app's own views are the same page; an unknown API path is still the JSON 404", async () => {
    for (const path of ["/map", "/account", "/data"]) {
      const res = await SELF.fetch(`https://api.test${path}`);
      expect(res.headers.get("Content-Type"), path).toContain("text/html");
    }
    const res = await SELF.fetch("https://api.test/billing/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
    const asset = await SELF.fetch("https://api.test/assets/no-such-file.js");
    expect(asset.status).toBe(404);
    expect(await asset.json()).toEqual({ detail: "Not found" });
  });

  it("API responses keep default-src 'none'", async () => {
    const res = await SELF.fetch("https://api.test/health");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("GET /config.json gives the page the identity provider, its public key and the basemap", async () => {
    const res = await SELF.fetch("https://api.test/config.json");
    expect(res.status).toBe(200);
    const body = await res.json<{ auth_url: string; anon_key: string; basemap_style_url: string | null }>();
    expect(body.auth_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(body.anon_key.length).toBeGreaterThan(20);
    expect(body.basemap_style_url).toBeNull();
  });
});
