// Chat sessions: a follow-up continues the conversation; another user's, another organisation's, an
// unknown or an expired session id is 404 Not found, and nothing is charged for it.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { sessionStub } from "../../../src/chat/session.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { addMember, createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask, chunksOf, modelRequests, newMarker, script, textOf } from "../helpers/chat.ts";
import { failWrites } from "../helpers/faults.ts";

let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [org, other] = await withDb(async (db) => [
    await createTeamOrg(db, { credits: 10, idpUsers: false }),
    await createTeamOrg(db, { credits: 10, idpUsers: false }),
  ]);
});

async function startSession(marker: string): Promise<string> {
  const res = await ask(org.users.member.token, { question: `What is in Epping? [[${marker}]]` });
  await chunksOf(res);
  return res.headers.get("x-session-id") as string;
}

const roles = (messages: { role: string }[]) => messages.map((m) => m.role);

describe("session continuity", () => {
  it("a follow-up with session_id sends the model the earlier turn and answers under the same X-Session-Id", async () => {
    const marker = newMarker();
    await script(marker, [
      { tool_calls: [{ id: "c1", name: "summarise_area", arguments: { suburb: "Epping" } }] },
      { text: "Epping has R2 and R4 zones." },
      { text: "Yes, some lots are flooded." },
    ]);
    const sessionId = await startSession(marker);
    const res = await ask(org.users.member.token, {
      question: `Any flood there? [[${marker}]]`,
      session_id: sessionId,
    });
    const chunks = await chunksOf(res);
    expect(res.headers.get("x-session-id")).toBe(sessionId);
    expect(textOf(chunks)).toBe("Yes, some lots are flooded.");
    const requests = await modelRequests(marker);
    const followUp = requests.at(-1)?.messages ?? [];
    expect(roles(followUp)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(followUp[1]?.content).toBe(`What is in Epping? [[${marker}]]`);
    expect(followUp[2]?.tool_calls?.[0]?.function.name).toBe("summarise_area");
    expect(followUp[4]?.content).toBe("Epping has R2 and R4 zones.");
    expect(followUp[5]?.content).toBe(`Any flood there? [[${marker}]]`);
  });

  it("the turn is kept before the answer's stream ends: a follow-up at once sees it, even while settling is slow", async () => {
    const slow = await withDb((db) => createTeamOrg(db, { credits: 10, idpUsers: false }));
    // Settling the first question fails and retries (then leaves it to the sweep) for as long as this stands.
    const fault = await withDb((db) => failWrites(db, "charged_jobs", "UPDATE", slow.orgId));
    try {
      const marker = newMarker();
      await script(marker, [{ text: "Epping has R2 and R4 zones." }, { text: "Some lots are flooded." }]);
      const first = await ask(slow.users.member.token, { question: `What is in Epping? [[${marker}]]` });
      await chunksOf(first);
      const sessionId = first.headers.get("x-session-id") as string;
      const res = await ask(slow.users.member.token, {
        question: `Any flood there? [[${marker}]]`,
        session_id: sessionId,
      });
      await chunksOf(res);
      const followUp = (await modelRequests(marker)).at(-1)?.messages ?? [];
      expect(roles(followUp)).toEqual(["system", "user", "assistant", "user"]);
      expect(followUp[2]?.content).toBe("Epping has R2 and R4 zones.");
    } finally {
      await withDb((db) => fault.clear(db));
    }
  });

  it("a question without session_id starts a new conversation", async () => {
    const a = await ask(org.users.member.token, { question: "What is in Epping?" });
    const b = await ask(org.users.member.token, { question: "What is in Epping?", session_id: null });
    await Promise.all([a.text(), b.text()]);
    expect(a.headers.get("x-session-id")).not.toBe(b.headers.get("x-session-id"));
  });

  it("a turn that failed is not kept: the next follow-up sees only the turns that were answered", async () => {
    const marker = newMarker();
    await script(marker, [{ text: "First answer." }, { status: 500 }, { status: 500 }, { text: "Third answer." }]);
    const sessionId = await startSession(marker);
    await chunksOf(await ask(org.users.member.token, { question: `Second [[${marker}]]`, session_id: sessionId }));
    await chunksOf(await ask(org.users.member.token, { question: `Third [[${marker}]]`, session_id: sessionId }));
    const last = (await modelRequests(marker)).at(-1)?.messages ?? [];
    expect(roles(last)).toEqual(["system", "user", "assistant", "user"]);
    expect(last[3]?.content).toBe(`Third [[${marker}]]`);
  });
});

describe("session ids that are not the caller's", () => {
  let sessionId: string;
  beforeAll(async () => {
    sessionId = await startSession(newMarker());
  });

  async function expectNotFound(token: string, id: unknown, payer: TestOrg): Promise<void> {
    const before = await withDb((db) => ledgerState(db, payer.orgId));
    const marker = newMarker();
    const res = await ask(token, { question: `Continue [[${marker}]]`, session_id: id });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
    expect(await modelRequests(marker)).toEqual([]);
    expect((await withDb((db) => ledgerState(db, payer.orgId))).entries).toEqual(before.entries);
  }

  it("another organisation's session id is 404 Not found, and nothing is charged", async () => {
    await expectNotFound(other.users.owner.token, sessionId, other);
  });

  it("another user's session in the same organisation is 404 too", async () => {
    await expectNotFound(org.users.owner.token, sessionId, org);
  });

  it("an unknown or malformed id is 404", async () => {
    await expectNotFound(org.users.member.token, crypto.randomUUID(), org);
    await expectNotFound(org.users.member.token, "not-a-session", org);
  });

  it("the owner can still continue it (ids are case-insensitive)", async () => {
    const res = await ask(org.users.member.token, {
      question: "What is in Epping?",
      session_id: sessionId.toUpperCase(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-session-id")).toBe(sessionId);
    await res.text();
  });
});

describe("session expiry", () => {
  it("the inactivity alarm deletes the session; continuing it is then 404", async () => {
    const member = await withDb((db) => addMember(db, org.orgId, "member", { idpUser: false }));
    const res = await ask(member.token, { question: "What is in Epping?" });
    await res.text();
    const sessionId = res.headers.get("x-session-id") as string;
    const stub = sessionStub(env.CHAT_SESSIONS, org.orgId, sessionId);
    expect(await stub.history({ orgId: org.orgId, userId: member.userId })).not.toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.history({ orgId: org.orgId, userId: member.userId })).toBeNull();
    const again = await ask(member.token, { question: "And now?", session_id: sessionId });
    expect(again.status).toBe(404);
  });
});
