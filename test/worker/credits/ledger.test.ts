// The credit ledger under concurrency: no lost, duplicated or overdrawn credit.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { debit, postEntry, type DebitInput } from "../../../src/credits/ledger.ts";
import { refusalError } from "../../../src/credits/refusal.ts";
import { InsufficientCreditsError } from "../../../src/errors.ts";
import { kindResponse } from "../../../src/http/errors.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";

// A debit whose refusal is thrown as the client sees it (charged work's reserve() does the same with refusalError).
async function charge(input: DebitInput) {
  const result = await debit(input);
  if (!result.ok) throw refusalError(result);
  return result.entry;
}

describe("credit ledger", () => {
  it("200 concurrent debits of 0.1 against 10: exactly 100 succeed, the rest are 402 insufficient_credits", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 10);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          charge({ db, orgId, amount: 0.1, idempotencyKey: `op-${i}`, actionType: "batch_score" }),
        ),
      );
      const ok = outcomes.filter((o) => o.status === "fulfilled");
      const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
      expect(ok).toHaveLength(100);
      expect(refused).toHaveLength(100);
      for (const err of refused) {
        expect(err).toBeInstanceOf(InsufficientCreditsError);
        const res = kindResponse(err as InsufficientCreditsError);
        expect(res.status).toBe(402);
        expect(await res.json()).toEqual({
          detail: { error: "insufficient_credits", required: 0.1, available: 0, deficit: 0.1 },
        });
      }
      const state = await ledgerState(db, orgId);
      expect(state.cached).toBe(0);
      expect(state.sum).toBe(0);
      expect(state.entries).toHaveLength(101);
    });
  });

  it("a refusal reports what it costs, what is there and the shortfall", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 0.3);
      const err = await charge({ db, orgId, amount: 0.5, idempotencyKey: "big" }).catch((e: unknown) => e);
      const res = kindResponse(err as InsufficientCreditsError);
      expect(res.status).toBe(402);
      expect(await res.json()).toEqual({
        detail: { error: "insufficient_credits", required: 0.5, available: 0.3, deficit: 0.2 },
      });
      expect((await ledgerState(db, orgId)).entries).toHaveLength(1);
    });
  });

  it("the same idempotency key posted 20 times concurrently makes one entry", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 5);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => debit({ db, orgId, amount: 1.5, idempotencyKey: "same-op" })),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      const ids = new Set(results.map((r) => (r.ok ? r.entry.id : "")));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
      const state = await ledgerState(db, orgId);
      expect(state.entries).toHaveLength(2);
      expect(state.cached).toBe(3.5);
      expect(state.sum).toBe(3.5);
    });
  });

  it("the same idempotency key replays even when the balance could no longer cover it", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 1);
      const first = await debit({ db, orgId, amount: 1, idempotencyKey: "k" });
      const again = await debit({ db, orgId, amount: 1, idempotencyKey: "k" });
      expect(first.ok && again.ok && again.replayed && again.entry.id === first.entry.id).toBe(true);
    });
  });

  it("records balance_after and returns numbers and ISO timestamps", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db);
      const res = await postEntry(db, {
        orgId,
        amount: 2.25,
        type: "purchase",
        idempotencyKey: "p1",
        expiresAt: new Date("2031-01-01T00:00:00Z"),
      });
      expect(res.ok).toBe(true);
      if (!res.ok) return;
      expect(res.entry.amount).toBe(2.25);
      expect(res.entry.balance_after).toBe(2.25);
      expect(res.entry.expires_at).toBe("2031-01-01T00:00:00.000Z");
      expect(res.entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });
  });

  it("an unknown organisation is refused without a write", async () => {
    await withDb(async (db) => {
      const res = await postEntry(db, {
        orgId: crypto.randomUUID(),
        amount: 1,
        type: "adjustment",
        idempotencyKey: "x",
      });
      expect(res).toEqual({ ok: false, reason: "org_not_found" });
    });
  });

  it("the database refuses to change or delete an entry", async () => {
    await withDb(async (db) => {
      const orgId = await createBareOrg(db, 1);
      await expect(db.execute(sql`update credit_ledger set amount = 100 where org_id = ${orgId}`)).rejects.toThrow();
      await expect(db.execute(sql`delete from credit_ledger where org_id = ${orgId}`)).rejects.toThrow();
      expect((await ledgerState(db, orgId)).cached).toBe(1);
    });
  });
});
