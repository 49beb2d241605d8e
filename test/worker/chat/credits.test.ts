// Chat credits: 0.05 per question before streaming (402 and nothing streamed when short); the scoring
// tool charges 0.1 per site as batch does, or tells the model it cannot.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask, chunksOf, modelRequests, newMarker, ofType, script, textOf } from "../helpers/chat.ts";
import { askApproving } from "./approvals.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

const newOrg = (credits: number) => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));

interface Entry extends Record<string, unknown> {
  type: string;
  amount: string;
  action_type: string | null;
  related_entity_id: string | null;
}
const entries = (o: TestOrg) =>
  withDb(async (db) =>
    (
      await db.execute<Entry>(
        sql`select type, amount, action_type, related_entity_id from credit_ledger where org_id = ${o.orgId} order by seq`,
      )
    ).rows.map((r) => ({ ...r, amount: Number(r.amount) })),
  );

const LOTS = ["22//DP1639151", "18/DP1082997", "Lot 24 DP 1293293"];

describe("charging a question", () => {
  it("debits 0.05 once, as a chat usage entry, before the answer streams; the stream reports the balance", async () => {
    const o = await newOrg(1);
    const chunks = await chunksOf(await ask(o.users.member.token, { question: "What is in Parramatta?" }));
    const rows = await entries(o);
    expect(rows.map((r) => [r.type, r.amount, r.action_type])).toEqual([
      ["adjustment", 1, null],
      ["usage", -0.05, "chat"],
    ]);
    expect(ofType(chunks, "data-credits")[0]?.data).toEqual({ action: "chat", charged: 0.05, balance: 0.95 });
    expect(textOf(chunks)).toContain("Parramatta");
  });

  it("short of credits: 402 with the structured body, nothing streamed, nothing charged, the model never asked", async () => {
    const o = await newOrg(0.04);
    const marker = newMarker();
    const res = await ask(o.users.member.token, { question: `What is in Parramatta? [[${marker}]]` });
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-session-id")).toBeNull();
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 0.05, available: 0.04, deficit: 0.01 },
    });
    expect(await modelRequests(marker)).toEqual([]);
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.entries).toHaveLength(1);
    expect(state.cached).toBe(0.04);
  });
});

describe("the scoring tool", () => {
  it("charges 0.1 per site scored once approved, as batch scoring, beside the question", async () => {
    const o = await newOrg(1);
    const marker = newMarker();
    await script(marker, [
      { tool_calls: [{ id: "call_score", name: "score_sites", arguments: { lot_ids: LOTS } }] },
      { text: "Scored three sites." },
    ]);
    const { chunks, approvals } = await askApproving(o.users.member.token, {
      question: `Score these lots [[${marker}]]`,
    });
    expect(approvals.map((a) => a.cost)).toEqual([0.3]);
    const output = ofType(chunks, "tool-output-available")[0]?.output as {
      charged: number;
      balance: number;
      scored: { score: number; rating: string }[];
    };
    expect(output.scored).toHaveLength(3);
    expect(output.charged).toBe(0.3);
    expect(output.balance).toBe(0.65);
    const parcels = ofType(chunks, "data-parcels")[0]?.data as {
      features: { properties: { score: number; rating: string } }[];
    };
    expect(parcels.features.map((f) => f.properties.score)).toEqual(output.scored.map((s) => s.score));
    const rows = await entries(o);
    expect(rows.map((r) => [r.type, r.amount, r.action_type])).toEqual([
      ["adjustment", 1, null],
      ["usage", -0.05, "chat"],
      ["usage", -0.3, "batch_score"],
    ]);
    // Each charge is a settlement job: the question still open while it streamed, the sites settled as done.
    const jobs = await withDb(
      async (db) =>
        (
          await db.execute<{
            id: string;
            action: string;
            units: number;
            units_done: number;
            status: string;
            refunded: string;
          }>(
            sql`select id, action, units, units_done, status, refunded from charged_jobs where org_id = ${o.orgId} order by settle_after`,
          )
        ).rows,
    );
    expect(jobs.map((j) => [j.id, j.action, j.units, j.units_done, j.status, Number(j.refunded)])).toEqual(
      expect.arrayContaining([
        [rows[1]?.related_entity_id, "chat", 1, 1, "settled", 0],
        [rows[2]?.related_entity_id, "batch_score", 3, 3, "settled", 0],
      ]),
    );
  });

  it("short of credits for the sites: the approved call returns insufficient_credits to the model, nothing more is charged, the answer still streams", async () => {
    const o = await newOrg(0.2);
    const marker = newMarker();
    await script(marker, [
      { tool_calls: [{ name: "score_sites", arguments: { lot_ids: LOTS } }] },
      { text: "You need more credits to score those." },
    ]);
    const { chunks } = await askApproving(o.users.member.token, { question: `Score these lots [[${marker}]]` });
    expect(ofType(chunks, "tool-output-available")[0]?.output).toEqual({
      error: "insufficient_credits",
      required: 0.3,
      available: 0.15,
      detail: expect.any(String),
    });
    expect(ofType(chunks, "data-parcels")).toEqual([]);
    expect(textOf(chunks)).toBe("You need more credits to score those.");
    const [, second] = await modelRequests(marker);
    expect(second?.messages.find((m) => m.role === "tool")?.content).toContain("insufficient_credits");
    expect((await entries(o)).map((r) => r.amount)).toEqual([0.2, -0.05]);
  });
});
