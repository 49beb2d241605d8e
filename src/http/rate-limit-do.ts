// Token buckets and concurrency slots shared by every isolate: one Durable Object per organisation (or user before
// post-signup).
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

/** At most `max` holders at once; a request waits up to `waitMs` for a slot; a slot not released lapses after `leaseMs`. */
export interface SlotPolicy {
  max: number;
  waitMs: number;
  leaseMs: number;
}

export type SlotDecision = { granted: true; lease: string } | { granted: false; retryAfter: number };

type Waiter = { policy: SlotPolicy; grant(lease: string): void };
// Work behind a gate takes a second or a few: a client told 1 s tries again about when a slot frees.
const RETRY_AFTER_S = 1;

const ORG_KEY = "org";

export class RateLimiter extends DurableObject<Env> {
  // In memory: an evicted (idle) object forgets its buckets, which only ever refills them early.
  private buckets = new Map<string, { tokens: number; at: number }>();
  // Per gate: the leases held (id to expiry) and the requests waiting for one, first come first served.
  private leases = new Map<string, Map<string, number>>();
  private waiters = new Map<string, Waiter[]>();

  // The gate's live leases; a holder whose isolate died never releases, so its lease lapses.
  private held(gate: string, now: number): Map<string, number> {
    let held = this.leases.get(gate);
    if (!held) {
      held = new Map();
      this.leases.set(gate, held);
    }
    for (const [id, until] of held) if (until <= now) held.delete(id);
    return held;
  }

  // Hands free slots to the longest waiters.
  private drain(gate: string, now: number): void {
    const held = this.held(gate, now);
    const queue = this.waiters.get(gate) ?? [];
    while (queue.length > 0 && held.size < (queue[0] as Waiter).policy.max) {
      const w = queue.shift() as Waiter;
      const lease = crypto.randomUUID();
      held.set(lease, now + w.policy.leaseMs);
      w.grant(lease);
    }
  }

  /** A slot of `gate` now, or within `waitMs` once a holder releases one; else refused with seconds to retry after. */
  async acquire(gate: string, policy: SlotPolicy, now: number = Date.now()): Promise<SlotDecision> {
    this.drain(gate, now);
    const held = this.held(gate, now);
    const queue = this.waiters.get(gate) ?? [];
    this.waiters.set(gate, queue);
    if (held.size < policy.max && queue.length === 0) {
      const lease = crypto.randomUUID();
      held.set(lease, now + policy.leaseMs);
      return { granted: true, lease };
    }
    if (policy.waitMs <= 0) return { granted: false, retryAfter: RETRY_AFTER_S };
    return new Promise<SlotDecision>((resolve) => {
      const waiter: Waiter = {
        policy,
        grant: (lease) => {
          clearTimeout(timer);
          resolve({ granted: true, lease });
        },
      };
      const timer = setTimeout(() => {
        // Lapsed leases free their slots only when someone looks: look once more before refusing.
        this.drain(gate, Date.now());
        const at = queue.indexOf(waiter);
        if (at < 0) return;
        queue.splice(at, 1);
        resolve({ granted: false, retryAfter: RETRY_AFTER_S });
      }, policy.waitMs);
      queue.push(waiter);
    });
  }

  /** Gives back a slot (twice, or after it lapsed, is harmless); the longest waiter takes it. */
  async release(gate: string, lease: string, now: number = Date.now()): Promise<void> {
    this.held(gate, now).delete(lease);
    this.drain(gate, now);
  }

  /** Leases held and requests waiting, for tests and logs. */
  async slots(gate: string, now: number = Date.now()): Promise<{ held: number; waiting: number }> {
    return { held: this.held(gate, now).size, waiting: this.waiters.get(gate)?.length ?? 0 };
  }

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
