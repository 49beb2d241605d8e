// At most a few heavy requests per organisation at once (docs/design.md section 11): a semaphore kept by the
// organisation's rate-limit object, so every isolate sees the same slots; excess requests wait, then get a 429.
import { createMiddleware } from "hono/factory";
import { errors } from "../http/errors.ts";
import type { SlotPolicy } from "../http/rate-limit-do.ts";
import { LimiterUnavailableError } from "../http/rate-limiter.ts";
import type { WorkGate } from "../search/gate.ts";
import { callerOrgId } from "./caller.ts";
import type { AuthEnv, Services } from "./context.ts";

/** The one table of gates; a lease lapses after `leaseMs` so a crashed isolate cannot keep its slot. */
export const CONCURRENCY = {
  // Site searches and assemblies share one pool per organisation.
  heavy: { max: 2, waitMs: 2_000, leaseMs: 60_000 },
} as const satisfies Record<string, SlotPolicy>;

export type GateName = keyof typeof CONCURRENCY;

/** The subject whose slots a caller uses: its organisation, or the user before post-signup. */
export const gateSubject = (orgId: string | null, userId: string): string =>
  orgId ? `org:${orgId}` : `user:${userId}`;

/** A gate over `subject`'s slots of `name`: released on completion and on error. */
export function workGate(services: Pick<Services, "rateLimiter" | "log">, subject: string, name: GateName): WorkGate {
  const { rateLimiter, log } = services;
  const policy = CONCURRENCY[name];
  return async (work) => {
    let lease: string | null = null;
    try {
      const d = await rateLimiter.acquire(subject, name, policy);
      if (!d.granted) return { ok: false, retryAfter: d.retryAfter };
      lease = d.lease;
    } catch (err) {
      if (!(err instanceof LimiterUnavailableError)) throw err;
      // As the search's rate limit: free reads fail open when the limiter cannot be reached.
      log.warn("concurrency gate unreachable; work runs without a slot", { gate: name, error: err });
    }
    try {
      return { ok: true, value: await work() };
    } finally {
      if (lease) {
        await rateLimiter.release(subject, name, lease).catch((err: unknown) => {
          log.warn("concurrency gate: release failed; the lease lapses", { gate: name, error: err });
        });
      }
    }
  };
}

/** Declared after requireAuth (and the rate limit): the route's handler runs in one of the caller's slots. */
export function concurrencyLimit(name: GateName) {
  return createMiddleware<AuthEnv>(async function concurrencyLimited(c, next) {
    const subject = gateSubject(await callerOrgId(c), c.var.principal.userId);
    const run = await workGate(c.var.services, subject, name)(() => next());
    if (!run.ok) throw errors.rateLimited(run.retryAfter);
  });
}
