// The rate limiter as the services see it: one RateLimiter Durable Object per subject (organisation or
// user); a call that fails or takes longer than LIMITER_TIMEOUT_MS throws LimiterUnavailableError.
import type { BucketPolicy, RateDecision, RateLimiter, SlotDecision, SlotPolicy } from "./rate-limit-do.ts";

/** Longer than this and the limiter counts as unreachable (the route's failure mode applies). */
export const LIMITER_TIMEOUT_MS = 2_000;

export class LimiterUnavailableError extends Error {}

export interface RateLimiterClient {
  /** Counts one request of organisation `orgId` against `bucket`. */
  takeForOrg(orgId: string, bucket: string, policy: BucketPolicy): Promise<RateDecision>;
  /** Counts one request of a user: against the organisation the limiter remembers for them, else the user. */
  takeForUser(userId: string, bucket: string, policy: BucketPolicy): Promise<RateDecision>;
  /** Tells the limiter the user's organisation (null after removal), for takeForUser. */
  rememberOrg(userId: string, orgId: string | null): Promise<void>;
  /** A slot of `gate` for `subject` (`org:<id>` or `user:<id>`), waiting up to the policy's `waitMs`. */
  acquire(subject: string, gate: string, policy: SlotPolicy): Promise<SlotDecision>;
  /** Gives the slot back. */
  release(subject: string, gate: string, lease: string): Promise<void>;
}

async function bounded<T>(work: () => Promise<T>, waitMs = 0): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LimiterUnavailableError("rate limiter timed out")),
      waitMs + LIMITER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work(), timeout]);
  } catch (err) {
    throw err instanceof LimiterUnavailableError
      ? err
      : new LimiterUnavailableError("rate limiter failed", { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/** One object per subject, so an organisation's buckets are shared by all its users and isolates. */
export function rateLimiterClient(ns: DurableObjectNamespace<RateLimiter>): RateLimiterClient {
  const stub = (subject: string) => ns.get(ns.idFromName(subject));
  return {
    takeForOrg: (orgId, bucket, policy) =>
      bounded(() => stub(`org:${orgId}`).take(bucket, policy, Date.now(), `org:${orgId}`)),
    takeForUser: (userId, bucket, policy) =>
      bounded(() => stub(`user:${userId}`).takeForUser(`user:${userId}`, bucket, policy, Date.now())),
    rememberOrg: (userId, orgId) => bounded(() => stub(`user:${userId}`).setOrg(orgId)),
    // The object may hold the call while the caller waits its turn: the timeout counts that wait on top.
    acquire: (subject, gate, policy) =>
      bounded<SlotDecision>(async () => {
        const d = await stub(subject).acquire(gate, policy, Date.now());
        return d.granted ? { granted: true, lease: d.lease } : { granted: false, retryAfter: d.retryAfter };
      }, policy.waitMs),
    release: (subject, gate, lease) => bounded(() => stub(subject).release(gate, lease, Date.now())),
  };
}
