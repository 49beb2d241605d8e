// Opening a question: a new session is started beside the charge; what fails after the charge is refunded at once.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NotFoundError, UnavailableError } from "../../../src/errors.ts";
import { openQuestion } from "../../../src/chat/open.ts";
import { loadHistory } from "../../../src/chat/session.ts";
import { createTeamOrg, ledgerState, testPayer, withDb } from "../helpers/billing.ts";

const packsDown = () => Promise.reject(new UnavailableError("pack storage", { detail: "Service unavailable" }));

describe("openQuestion", () => {
  it("a new question whose packs cannot be read throws their failure, and its charge is already refunded", async () => {
    await withDb(async (db) => {
      const o = await createTeamOrg(db, { credits: 1, idpUsers: false });
      const owner = { orgId: o.orgId, userId: o.users.owner.userId };
      const opening = openQuestion({
        sessions: env.CHAT_SESSIONS,
        owner,
        payer: testPayer(db, o),
        sessionId: undefined,
        packs: packsDown,
      });
      await expect(opening).rejects.toBeInstanceOf(UnavailableError);
      const state = await ledgerState(db, o.orgId);
      expect(state.entries.map((e) => [e.type, e.amount])).toEqual([
        ["adjustment", 1],
        ["usage", -0.05],
        ["refund", 0.05],
      ]);
      expect(state.cached).toBe(1);
    });
  });

  it("a new question: the session exists for its owner and the question is charged once", async () => {
    await withDb(async (db) => {
      const o = await createTeamOrg(db, { credits: 1, idpUsers: false });
      const owner = { orgId: o.orgId, userId: o.users.owner.userId };
      const q = await openQuestion({
        sessions: env.CHAT_SESSIONS,
        owner,
        payer: testPayer(db, o),
        sessionId: undefined,
        packs: async () => [],
      });
      expect(await loadHistory(env.CHAT_SESSIONS, owner, q.sessionId)).toEqual([]);
      expect(q.charges.question.charged).toBe(0.05);
      expect((await ledgerState(db, o.orgId)).cached).toBe(0.95);
    });
  });

  it("an unknown session: 404 before anything is charged", async () => {
    await withDb(async (db) => {
      const o = await createTeamOrg(db, { credits: 1, idpUsers: false });
      const owner = { orgId: o.orgId, userId: o.users.owner.userId };
      const opening = openQuestion({
        sessions: env.CHAT_SESSIONS,
        owner,
        payer: testPayer(db, o),
        sessionId: crypto.randomUUID(),
        packs: async () => [],
      });
      await expect(opening).rejects.toBeInstanceOf(NotFoundError);
      expect((await ledgerState(db, o.orgId)).entries.map((e) => e.type)).toEqual(["adjustment"]);
    });
  });
});
