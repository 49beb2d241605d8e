// Token buckets shared by every isolate: one Durable Object per organisation (or user before post-signup).
// A user's object also remembers the user's organisation, so a request can be counted against it when
// the database cannot say which organisation the user belongs to.
import { DurableObject } from "cloudflare:workers";

/** A bucket holds at most `burst` tokens and gains `refillPerS` a second; each request takes one. */
export interface BucketPolicy {
  burst: number;
  refillPerS: number;
}

export interface RateDecision {
  allowed: boolean;
  /** When refused: whole seconds until a token is available (a retry after this many seconds succeeds). */
  retryAfter: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Whole seconds until the bucket is full again. */
  reset: number;
  /** The subject whose bucket counted the request (`org:<id>` or `user:<id>`). */
  subject: string;
}

const ORG_KEY = "org";

export class RateLimiter extends DurableObject<Env> {
  // In memory: an evicted (idle) object forgets its buckets, which only ever refills them early.
  private buckets = new Map<string, { tokens: number; at: number }>();

  /** Takes one token of `bucket` when there is one. */
  async take(bucket: string, policy: BucketPolicy, now: number = Date.now(), subject = ""): Promise<RateDecision> {
    const { burst, refillPerS } = policy;
    const b = this.buckets.get(bucket);
    const elapsedS = b ? Math.max(0, now - b.at) / 1000 : 0;
    let tokens = b ? Math.min(burst, b.tokens + elapsedS * refillPerS) : burst;
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    this.buckets.set(bucket, { tokens, at: now });
    // Tiny epsilon: float error must not turn an exact 2 s into 3 s.
    const secondsFor = (missing: number) => Math.max(0, Math.ceil(missing / refillPerS - 1e-9));
    return {
      allowed,
      retryAfter: allowed ? 0 : Math.max(1, secondsFor(1 - tokens)),
      remaining: Math.floor(tokens),
      reset: secondsFor(burst - tokens),
      subject,
    };
  }

  /** On a user's object: counts against the organisation it remembers, else against the user. */
  async takeForUser(userSubject: string, bucket: string, policy: BucketPolicy, now: number = Date.now()) {
    const orgId = await this.ctx.storage.get<string>(ORG_KEY);
    if (!orgId) return this.take(bucket, policy, now, userSubject);
    const ns = this.env.RATE_LIMITER;
    const subject = `org:${orgId}`;
    return ns.get(ns.idFromName(subject)).take(bucket, policy, now, subject);
  }

  /** On a user's object: the user's organisation now (null: none, e.g. removed). */
  async setOrg(orgId: string | null): Promise<void> {
    if (orgId) await this.ctx.storage.put(ORG_KEY, orgId);
    else await this.ctx.storage.delete(ORG_KEY);
  }
}
