// Per-organisation token buckets (docs/interface.md section 8, rule 1): 429 {detail, retry_after} with Retry-After when a bucket is
// empty, and the IETF draft's RateLimit-Policy / RateLimit headers on every response of a limited route.
import { createMiddleware } from "hono/factory";
import { UnavailableError } from "../errors.ts";
import { callerMembership } from "./caller.ts";
import type { AuthEnv, OrgEnv } from "./context.ts";
import { errors } from "../http/errors.ts";
import type { BucketPolicy, RateDecision } from "../http/rate-limit-do.ts";
import { LimiterUnavailableError } from "../http/rate-limiter.ts";

/**
 * The one table of limits, per organisation (per user before post-signup) and route: a bucket of `burst`
 * requests refilled evenly over `windowS` seconds. `whenUnreachable`: what a request gets when the
 * limiter cannot be reached: reads are served uncounted ("open"), charged work is refused with 503 ("closed").
 */
export const RATE_LIMITS = {
  geocode: { burst: 120, windowS: 60, whenUnreachable: "open" },
  batch: { burst: 10, windowS: 60, whenUnreachable: "closed" },
  report: { burst: 10, windowS: 60, whenUnreachable: "closed" },
  chat: { burst: 20, windowS: 60, whenUnreachable: "closed" },
  checkout: { burst: 10, windowS: 60, whenUnreachable: "closed" },
  invite: { burst: 20, windowS: 3600, whenUnreachable: "closed" },
  // A map asks for a dozen tiles per pan and a fact per click: generous, and free reads fail open.
  tiles: { burst: 1200, windowS: 60, whenUnreachable: "open" },
  parcels: { burst: 300, windowS: 60, whenUnreachable: "open" },
  suggest: { burst: 600, windowS: 60, whenUnreachable: "open" },
  // The Find sites tab asks again as filters change (debounced): a count per pause in typing.
  search: { burst: 120, windowS: 60, whenUnreachable: "open" },
  parcel_score: { burst: 60, windowS: 60, whenUnreachable: "closed" },
  // Building a pack is the heaviest work a request does; 30 a minute still fills an organisation's 20.
  pack_upload: { burst: 30, windowS: 60, whenUnreachable: "closed" },
} as const satisfies Record<string, { burst: number; windowS: number; whenUnreachable: "open" | "closed" }>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export function bucketPolicy(name: RateLimitName): BucketPolicy {
  const { burst, windowS } = RATE_LIMITS[name];
  return { burst, refillPerS: burst / windowS };
}

/** draft-ietf-httpapi-ratelimit-headers: the quota policy, and what is left of it (r) and until full (t). */
export function rateLimitHeaders(name: RateLimitName, d: RateDecision): Record<string, string> {
  const { burst, windowS } = RATE_LIMITS[name];
  return {
    "RateLimit-Policy": `"${name}";q=${burst};w=${windowS}`,
    RateLimit: `"${name}";r=${d.remaining};t=${d.reset}`,
    "X-RateLimit-Limit": String(burst),
    "X-RateLimit-Remaining": String(d.remaining),
  };
}

// Which organisation this isolate last told the limiter each user belongs to, to tell it only changes.
const TOLD_TTL_MS = 5 * 60_000;
const told = new Map<string, { orgId: string | null; at: number }>();

async function tellLimiter(c: { var: AuthEnv["Variables"] }, orgId: string | null): Promise<void> {
  const userId = c.var.principal.userId;
  const last = told.get(userId);
  if (last && last.orgId === orgId && Date.now() - last.at < TOLD_TTL_MS) return;
  try {
    await c.var.services.rateLimiter.rememberOrg(userId, orgId);
    if (told.size > 10_000) told.clear();
    told.set(userId, { orgId, at: Date.now() });
  } catch (err) {
    c.var.services.log.warn("rate limiter: could not record the user's organisation", { error: err });
  }
}

/**
 * Counts the request. After requireOrg() the organisation is known. On routes open before post-signup
 * (geocode) it is read from the database; when that read fails, the limiter's own record of the user's
 * organisation keys the request, so a database under load cannot split an organisation's budget per user.
 */
async function count(c: { var: AuthEnv["Variables"] }, name: RateLimitName): Promise<RateDecision> {
  const { rateLimiter, log } = c.var.services;
  const policy = bucketPolicy(name);
  const known = (c.var as Partial<OrgEnv["Variables"]>).membership;
  let orgId: string | null | undefined = known?.orgId;
  if (orgId === undefined) {
    try {
      orgId = (await callerMembership(c))?.orgId ?? null;
    } catch (err) {
      log.warn("organisation lookup failed; the rate limiter keys by its record of the user", { error: err });
    }
  }
  if (orgId === undefined) return rateLimiter.takeForUser(c.var.principal.userId, name, policy);
  await tellLimiter(c, orgId);
  return orgId
    ? rateLimiter.takeForOrg(orgId, name, policy)
    : rateLimiter.takeForUser(c.var.principal.userId, name, policy);
}

/** Declared on a route after requireAuth (and after requireOrg()/requireRole() where the route has them). */
export function rateLimit(name: RateLimitName) {
  return createMiddleware<AuthEnv>(async function rateLimited(c, next) {
    let decision: RateDecision;
    try {
      decision = await count(c, name);
    } catch (err) {
      if (!(err instanceof LimiterUnavailableError)) throw err;
      if (RATE_LIMITS[name].whenUnreachable === "closed")
        throw new UnavailableError("rate limiter", { cause: err, detail: "Service unavailable" });
      c.var.services.log.warn("rate limiter unreachable; request served uncounted", { route: name, error: err });
      await next();
      return;
    }
    const headers = rateLimitHeaders(name, decision);
    if (!decision.allowed) throw errors.rateLimited(decision.retryAfter, headers);
    await next();
    try {
      for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
    } catch {
      // A response with immutable headers (e.g. passed through from fetch): copy it.
      c.res = new Response(c.res.body, c.res);
      for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
    }
  });
}
