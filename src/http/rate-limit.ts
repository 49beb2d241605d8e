// Per-organisation request limits (spec §8): 429 {detail, retry_after} with Retry-After when exceeded.
import { createMiddleware } from "hono/factory";
import { callerOrgId } from "./caller.ts";
import type { AuthEnv } from "./context.ts";
import { errors } from "./errors.ts";

/** The one table of limits: requests per window, counted per organisation (per user before post-signup). */
export const RATE_LIMITS = {
  batch: { limit: 10, windowS: 60 },
  geocode: { limit: 120, windowS: 60 },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Declared on a route after requireAuth. */
export function rateLimit(name: RateLimitName) {
  const { limit, windowS } = RATE_LIMITS[name];
  return createMiddleware<AuthEnv>(async function rateLimited(c, next) {
    // Before post-signup (or without the database) there is no organisation: count by user meanwhile.
    const orgId = await callerOrgId(c);
    const subject = orgId ? `org:${orgId}` : `user:${c.var.principal.userId}`;
    const decision = await c.var.services.rateLimiter.take(subject, name, limit, windowS);
    if (!decision.allowed) throw errors.rateLimited(decision.retryAfter);
    await next();
    c.res.headers.set("X-RateLimit-Limit", String(limit));
    c.res.headers.set("X-RateLimit-Remaining", String(decision.remaining));
  });
}
