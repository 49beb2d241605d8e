// Expiring grants: debits spend the earliest-expiring live credits first; the sweep expires each remainder once.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import { debit, grant } from "../../../src/credits/ledger.ts";
import { expireGrants, expireOrgGrants } from "../../../src/credits/expiry.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";

const HOUR = 3_600_000;

describe("credit expiry", () => {
  it("debits consume the earliest-expiring grant first and only the unspent part expires", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db);
      const t = Date.now();
      await grant({ db, orgId, amount: 3, type: "purchase", idempotencyKey: "forever" });
      const b = await grant({
        db,
        orgId,
        amount: 5,
        type: "subscription_grant",
        idempotencyKey: "b",
        expiresAt: new Date(t + 2 * HOUR),
      });
      const a = await grant({
        db,
        orgId,
        amount: 5,
        type: "signup_bonus",
        idempotencyKey: "a",
        expiresAt: new Date(t + HOUR),
      });
      expect((await debit({ db, orgId, amount: 7, idempotencyKey: "spend" })).ok).toBe(true);

      // a (earliest) was spent fully, b by 2: nothing of a is left to expire.
      expect(await expireOrgGrants({ db, orgId, now: new Date(t + 1.5 * HOUR) })).toEqual({
        expired: 0,
        deferred: false,
      });
      expect(await expireOrgGrants({ db, orgId, now: new Date(t + 3 * HOUR) })).toEqual({
        expired: 1,
        deferred: false,
      });
      // Again, and twice at once: still one expiry entry per grant.
      await Promise.all([
        expireOrgGrants({ db, orgId, now: new Date(t + 4 * HOUR) }),
        expireOrgGrants({ db, orgId, now: new Date(t + 4 * HOUR) }),
      ]);

      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "expiry")).toMatchObject([
        { amount: -3, balance_after: 3, type: "expiry", action_type: null },
      ]);
      expect(state.cached).toBe(3);
      expect(state.sum).toBe(3);
      expect(a.ok && b.ok).toBe(true);
    });
  });

  it("live grants are spent before lapsed ones the sweep has not reached yet", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db);
      await grant({
        db,
        orgId,
        amount: 5,
        type: "purchase",
        idempotencyKey: "lapsed",
        expiresAt: new Date(Date.now() - HOUR),
      });
      await grant({ db, orgId, amount: 3, type: "purchase", idempotencyKey: "live" });
      await debit({ db, orgId, amount: 2, idempotencyKey: "spend" });
      expect(await expireOrgGrants({ db, orgId, now: new Date() })).toEqual({ expired: 1, deferred: false });
      const state = await ledgerState(db, orgId);
      expect(state.entries.at(-1)).toMatchObject({ amount: -5, balance_after: 1, type: "expiry", action_type: null });
      expect(state.cached).toBe(1);
    });
  });

  it("a grant spent entirely posts no expiry entry", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db);
      await grant({
        db,
        orgId,
        amount: 2,
        type: "purchase",
        idempotencyKey: "g",
        expiresAt: new Date(Date.now() + HOUR),
      });
      await debit({ db, orgId, amount: 2, idempotencyKey: "spend" });
      expect(await expireOrgGrants({ db, orgId, now: new Date(Date.now() + 2 * HOUR) })).toEqual({
        expired: 0,
        deferred: false,
      });
      expect((await ledgerState(db, orgId)).entries).toHaveLength(2);
    });
  });

  it("a ledger that moved since the sweep read it is deferred, not over-expired", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db);
      await grant({
        db,
        orgId,
        amount: 4,
        type: "purchase",
        idempotencyKey: "g",
        expiresAt: new Date(Date.now() - HOUR),
      });
      const { postEntry } = await import("../../../src/credits/ledger.ts");
      const stale = await postEntry(db, {
        orgId,
        amount: -4,
        type: "expiry",
        idempotencyKey: "manual",
        unchangedSince: 0,
      });
      expect(stale).toEqual({ ok: false, reason: "stale" });
      expect((await ledgerState(db, orgId)).cached).toBe(4);
    });
  });

  it("the sweep covers every organisation and the cron trigger runs it", async () => {
    const orgId = await withDb(async (db) => {
      const id = await createBareOrg(db);
      await grant({
        db,
        orgId: id,
        amount: 1.5,
        type: "purchase",
        idempotencyKey: "g",
        expiresAt: new Date(Date.now() - 1000),
      });
      return id;
    });
    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await withDb(async (db) => {
      const state = await ledgerState(db, orgId);
      expect(state.entries.at(-1)).toMatchObject({ amount: -1.5, balance_after: 0, type: "expiry", action_type: null });
      // Already swept: another run finds nothing of this organisation's left to expire.
      await expireGrants({ db });
      expect((await ledgerState(db, orgId)).entries).toHaveLength(2);
    });
  });
});
