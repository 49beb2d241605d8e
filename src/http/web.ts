// The web workspace: its static files from Workers Static Assets, its public settings, its own CSP.
import type { Context } from "hono";
import type { HttpEnv } from "./http-env.ts";
import type { PageConfig } from "../routes/schemas/page-config.ts";

// Client-side views of the single-page app; any other unknown path stays the API's JSON 404.
export const PAGE_PATHS = ["/", "/map", "/account", "/data"] as const;

/** The page may load only its own scripts, maplibre's blob workers, and talk to this API, the identity provider and the basemap. */
export function pageCsp(authUrl: string | undefined, basemapStyleUrl: string | undefined): string {
  const origins = [authUrl, basemapStyleUrl].flatMap((u) => {
    if (!u) return [];
    try {
      return [new URL(u).origin];
    } catch {
      return [];
    }
  });
  const connect = ["'self'", ...origins].join(" ");
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "child-src blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const assets = (c: Context<HttpEnv>): Fetcher | undefined => c.var.services.assets;

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Workspace not built</title>
<p>The web workspace has not been built. Run <code>npm run build:web</code> (npm run dev does it for you).</p>`;

/** The app's HTML for any of its views (the client router reads the path). */
export async function servePage(c: Context<HttpEnv>): Promise<Response> {
  const { authUrl, basemapStyleUrl } = c.var.config.web;
  const binding = assets(c);
  const res = binding ? await binding.fetch(new URL("/index.html", c.req.url)) : undefined;
  const page = res?.ok ? new Response(res.body, res) : new Response(NOT_BUILT, { status: 503 });
  page.headers.set("Content-Type", "text/html; charset=utf-8");
  page.headers.set("Cache-Control", "no-cache");
  page.headers.set("Content-Security-Policy", pageCsp(authUrl, basemapStyleUrl));
  return page;
}

/** Hashed build files under /assets/: cached for a year, since a new build has new names. */
export async function serveAsset(c: Context<HttpEnv>): Promise<Response> {
  const binding = assets(c);
  const res = binding ? await binding.fetch(c.req.raw) : undefined;
  if (!res?.ok) return c.json({ detail: "Not found" }, 404);
  const out = new Response(res.body, res);
  out.headers.set("Cache-Control", "public, max-age=31536000, immutable");
  // A worker script runs under the policy it is served with: maplibre's must be allowed to fetch tiles.
  const { authUrl, basemapStyleUrl } = c.var.config.web;
  out.headers.set("Content-Security-Policy", pageCsp(authUrl, basemapStyleUrl));
  return out;
}

/** Public settings the page needs before sign-in: the identity provider, its public key, the basemap. */
export function pageConfig(c: Context<HttpEnv>): Response {
  const { authUrl, anonKey, basemapStyleUrl } = c.var.config.web;
  const config: PageConfig = {
    auth_url: authUrl ?? null,
    anon_key: anonKey ?? null,
    basemap_style_url: basemapStyleUrl ?? null,
  };
  return c.json(config);
}
