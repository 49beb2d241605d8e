// Refunds keep the expiry of the credits they give back: a charged job's refund (related to the job like its
// debit, as src/credits writes them) returns to the grant the debit consumed and lapses with it.
import { describe, expect, it } from "vitest";
import { expireGrants } from "../../../src/credits/expiry.ts";
import { grant, postEntry } from "../../../src/credits/ledger.ts";
import type { Db } from "../../../src/db/client.ts";
import { createBareOrg, ledgerState, withDb } from "../helpers/billing.ts";

const MINUTE = 60_000;

/** An organisation whose only credits are 5 expiring a minute from now, 4.3 of them charged to a job. */
async function chargedFromExpiringGrant(db: Db): Promise<{ orgId: string; refund: () => Promise<void> }> {
  const orgId = await createBareOrg(db);
  const job = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + MINUTE);
  await grant({ db, orgId, amount: 5, type: "subscription_grant", idempotencyKey: "grant", expiresAt });
  const debit = { orgId, type: "usage" as const, relatedEntityId: job, actionType: "batch_score" as const };
  expect((await postEntry(db, { ...debit, amount: -4.3, idempotencyKey: "charge" })).ok).toBe(true);
  const refund = async () => {
    const posted = await postEntry(db, { ...debit, type: "refund", amount: 4.3, idempotencyKey: `refund:${job}` });
    expect(posted.ok).toBe(true);
  };
  return { orgId, refund };
}

describe("refunds and expiry", () => {
  it("a refund before the sweep expires with its grant: all 5 credits lapse, none outlive it", async () => {
    await withDb(async (db) => {
      const { orgId, refund } = await chargedFromExpiringGrant(db);
      await refund();
      await expireGrants({ db, now: new Date(Date.now() + 2 * MINUTE) });
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "expiry").map((e) => e.amount)).toEqual([-5]);
      expect(state.cached).toBe(0);
    });
  });

  it("a refund after its grant was swept is expired by the next sweep under its own key", async () => {
    await withDb(async (db) => {
      const { orgId, refund } = await chargedFromExpiringGrant(db);
      await expireGrants({ db, now: new Date(Date.now() + 2 * MINUTE) });
      await refund();
      expect((await ledgerState(db, orgId)).cached).toBe(4.3);
      await expireGrants({ db, now: new Date(Date.now() + 3 * MINUTE) });
      await expireGrants({ db, now: new Date(Date.now() + 4 * MINUTE) });
      const state = await ledgerState(db, orgId);
      expect(state.entries.filter((e) => e.type === "expiry").map((e) => e.amount)).toEqual([-0.7, -4.3]);
      expect(state.cached).toBe(0);
      expect(state.sum).toBe(0);
    });
  });
});
