// Security headers on every response: no sniffing, no framing, no referrer, HTTPS only; JSON may load
// nothing, and HTML (the /docs page) only its own inline styles.
import { createMiddleware } from "hono/factory";
import type { HttpEnv } from "./http-env.ts";

const COMMON: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

export const securityHeaders = createMiddleware<HttpEnv>(async function securityHeaders(c, next) {
  await next();
  let headers = c.res.headers;
  try {
    headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    c.res = new Response(c.res.body, c.res);
    headers = c.res.headers;
  }
  for (const [k, v] of Object.entries(COMMON)) headers.set(k, v);
  const html = (headers.get("Content-Type") ?? "").startsWith("text/html");
  // The workspace page sets its own policy (http/web.ts); everything else gets one of these.
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", html ? HTML_CSP : API_CSP);
});
