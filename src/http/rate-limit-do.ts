// Fixed-window request counters shared by every isolate: one Durable Object per organisation (or user).
import { DurableObject } from "cloudflare:workers";

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the current window ends (what Retry-After says when refused). */
  retryAfter: number;
  remaining: number;
}

export class RateLimiter extends DurableObject<Env> {
  private windows = new Map<string, { start: number; count: number }>();

  /** Counts one request against `bucket`; refused once `limit` requests fell in the current window. */
  async take(bucket: string, limit: number, windowS: number, now: number = Date.now()): Promise<RateDecision> {
    const windowMs = windowS * 1000;
    let w = this.windows.get(bucket);
    if (!w || now - w.start >= windowMs) {
      w = { start: now - (now % windowMs), count: 0 };
      this.windows.set(bucket, w);
    }
    const retryAfter = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    if (w.count >= limit) return { allowed: false, retryAfter, remaining: 0 };
    w.count += 1;
    return { allowed: true, retryAfter, remaining: limit - w.count };
  }
}
