// CORS for configured origins; entries may end in ":*" to allow any port of a host (the dev stack).
import { cors as honoCors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import type { HttpEnv } from "./http-env.ts";

export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  for (const rule of allowed) {
    if (rule === "*" || rule === origin) return true;
    if (rule.endsWith(":*")) {
      const prefix = rule.slice(0, -1);
      if (origin.startsWith(prefix) && /^\d+$/.test(origin.slice(prefix.length))) return true;
    }
  }
  return false;
}

export const cors = createMiddleware<HttpEnv>(async function cors(c, next) {
  const allowed = c.get("config").corsOrigins;
  return honoCors({
    origin: (origin) => (origin && originAllowed(origin, allowed) ? origin : null),
    allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Session-Id"],
    allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    exposeHeaders: ["X-Session-Id", "Retry-After", "X-Request-Id", "RateLimit", "RateLimit-Policy"],
    maxAge: 600,
  })(c, next);
});
