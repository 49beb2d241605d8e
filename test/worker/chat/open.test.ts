// Opening a question: a new session is started beside the charge; what fails after the charge is refunded at once.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NotFoundError, UnavailableError } from "../../../src/errors.ts";
import { openQuestion } from "../../../src/chat/open.ts";
import { loadHistory } from "../../../src/chat/session.ts";
import type { Db } from "../../../src/db/client.ts";
import { fixedScope, type PackScope } from "../../../src/packs/scope.ts";
import { createTeamOrg, ledgerState, testPayer, withDb, type TestOrg } from "../helpers/billing.ts";

const packsDown = () => Promise.reject(new UnavailableError("pack storage", { detail: "Service unavailable" }));

/** A team organisation with 1 credit, and its owner opening a question (a new one unless `sessionId`). */
async function opening(db: Db, opts: { sessionId?: string; packs?: () => Promise<PackScope> } = {}) {
  const o: TestOrg = await createTeamOrg(db, { credits: 1, idpUsers: false });
  const owner = { orgId: o.orgId, userId: o.users.owner.userId };
  const question = openQuestion({
    sessions: env.CHAT_SESSIONS,
    owner,
    payer: testPayer(db, o),
    sessionId: opts.sessionId,
    packs: opts.packs ?? (async () => fixedScope([])),
  });
  return { o, owner, question };
}

describe("openQuestion", () => {
  it("a new question whose packs cannot be read throws their failure, and its charge is already refunded", async () => {
    await withDb(async (db) => {
      const { o, question } = await opening(db, { packs: packsDown });
      await expect(question).rejects.toBeInstanceOf(UnavailableError);
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
      const { o, owner, question } = await opening(db);
      const q = await question;
      expect(await loadHistory(env.CHAT_SESSIONS, owner, q.sessionId)).toEqual([]);
      expect(q.charges.question.charged).toBe(0.05);
      expect((await ledgerState(db, o.orgId)).cached).toBe(0.95);
    });
  });

  it("an unknown session: 404 before anything is charged", async () => {
    await withDb(async (db) => {
      const { o, question } = await opening(db, { sessionId: crypto.randomUUID() });
      await expect(question).rejects.toBeInstanceOf(NotFoundError);
      expect((await ledgerState(db, o.orgId)).entries.map((e) => e.type)).toEqual(["adjustment"]);
    });
  });
});
