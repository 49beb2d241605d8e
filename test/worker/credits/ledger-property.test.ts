// Property: whatever sequence of grants, debits, refunds and expiry sweeps, the ledger chain holds.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { debit, grant } from "../../../src/credits/ledger.ts";
import { expireOrgGrants } from "../../../src/credits/expiry.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";

const HOUR = 3_600_000;
const credits = fc.integer({ min: 1, max: 300 }).map((n) => n / 10);

type Op =
  | { kind: "grant"; amount: number; expiry: "none" | "soon" | "later" }
  | { kind: "debit"; amount: number }
  | { kind: "refund"; amount: number }
  | { kind: "sweep"; hoursAhead: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("grant" as const),
    amount: credits,
    expiry: fc.constantFrom("none" as const, "soon" as const, "later" as const),
  }),
  fc.record({ kind: fc.constant("debit" as const), amount: credits }),
  fc.record({ kind: fc.constant("refund" as const), amount: credits }),
  fc.record({ kind: fc.constant("sweep" as const), hoursAhead: fc.constantFrom(0, 2, 48) }),
);

// Expiries lie ahead of real time (sweeps here pass a future `now`), so the cron test's real-time
// sweep of every organisation, running in parallel, never touches these.
const expiryOf = (e: "none" | "soon" | "later", t: number): Date | null =>
  e === "none" ? null : new Date(t + (e === "soon" ? HOUR : 24 * HOUR));

describe("credit ledger (property)", () => {
  it("balance_after chains, never goes negative, and the cached balance equals the ledger", async () => {
    await withDb(async (db) => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
          const orgId = await createBareOrg(db);
          const t = Date.now();
          let expected = 0;
          for (const [i, o] of ops.entries()) {
            const key = `op-${i}`;
            if (o.kind === "grant" || o.kind === "refund") {
              const type = o.kind === "refund" ? "refund" : "purchase";
              const res = await grant({
                db,
                orgId,
                amount: o.amount,
                type,
                idempotencyKey: key,
                expiresAt: o.kind === "grant" ? expiryOf(o.expiry, t) : null,
              });
              expect(res.ok).toBe(true);
              expected = Math.round((expected + o.amount) * 10000) / 10000;
            } else if (o.kind === "debit") {
              const res = await debit({ db, orgId, amount: o.amount, idempotencyKey: key });
              // Refused exactly when the balance does not cover it.
              expect(res.ok).toBe(expected >= o.amount);
              if (res.ok) expected = Math.round((expected - o.amount) * 10000) / 10000;
            } else {
              await expireOrgGrants({ db, orgId, now: new Date(t + o.hoursAhead * HOUR) });
              expected = (await ledgerState(db, orgId)).cached;
            }
          }
          const state = await ledgerState(db, orgId);
          let prev = 0;
          for (const e of state.entries) {
            expect(Math.round((prev + e.amount) * 10000)).toBe(Math.round(e.balance_after * 10000));
            expect(e.balance_after).toBeGreaterThanOrEqual(0);
            prev = e.balance_after;
          }
          expect(state.cached).toBe(prev);
          expect(state.cached).toBe(state.sum);
          expect(state.cached).toBe(expected);
          // A sweep never expires more than was granted with an expiry.
          const expired = state.entries.filter((e) => e.type === "expiry").reduce((s, e) => s - e.amount, 0);
          const expiring = ops.reduce((s, o) => s + (o.kind === "grant" && o.expiry !== "none" ? o.amount : 0), 0);
          expect(expired).toBeLessThanOrEqual(expiring + 1e-9);
        }),
        { numRuns: 25 },
      );
    });
  });
});
