// The rate limiter as the services see it: one RateLimiter Durable Object per subject.
import type { RateDecision, RateLimiter } from "./rate-limit-do.ts";

export interface RateLimiterClient {
  /** Counts one request of `subject` (an organisation or user) against `bucket`. */
  take(subject: string, bucket: string, limit: number, windowS: number): Promise<RateDecision>;
}

/** One object per subject, so an organisation's counters are shared by all its users and isolates. */
export function rateLimiterClient(ns: DurableObjectNamespace<RateLimiter>): RateLimiterClient {
  return { take: (subject, bucket, limit, windowS) => ns.get(ns.idFromName(subject)).take(bucket, limit, windowS) };
}
