// A short per-isolate memory of each user's membership, so free reads and charged work skip a database round trip.
import type { Membership } from "./membership.ts";

/**
 * How long a remembered membership is trusted. A change made through this isolate is seen at once; one made
 * through another isolate (a removal, a role change) within this long. Money never depends on it: the charge
 * statement re-checks membership, and owner/admin routes always read the database.
 */
export const MEMBERSHIP_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

const remembered = new Map<string, { membership: Membership; at: number }>();

export const membershipCache = {
  get(userId: string, now = Date.now()): Membership | undefined {
    const hit = remembered.get(userId);
    if (!hit) return undefined;
    if (now - hit.at < MEMBERSHIP_TTL_MS) return hit.membership;
    remembered.delete(userId);
    return undefined;
  },
  /** Only memberships are remembered, never their absence: a new user's post-signup is seen at once. */
  set(membership: Membership, now = Date.now()): void {
    if (remembered.size >= MAX_ENTRIES) remembered.clear();
    remembered.set(membership.userId, { membership, at: now });
  },
  forget(userId: string): void {
    remembered.delete(userId);
  },
};
