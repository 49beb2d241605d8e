// Issue 47 (hostile round four): score_sites runs in one of the organisation's heavy slots, as find_parcels and
// POST /sites/search do. With both slots held it is refused with a sentence saying when to retry and charges
// nothing; with a slot free it scores and charges as before, and it gives the slot back.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { busySentence } from "../../../src/chat/tools/score-sites.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { CONCURRENCY } from "../../../src/request/concurrency.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";
import { type Chunk, modelRequests, newMarker, ofType, script } from "../helpers/chat.ts";
import { askApproving } from "./approvals.ts";

const GATE = "heavy";
const policy = CONCURRENCY.heavy;
const LOTS = ["22//DP1639151", "18/DP1082997", "Lot 24 DP 1293293"];

const slotsOf = (o: TestOrg) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`org:${o.orgId}`));
const newOrg = (credits: number) => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));
const usage = async (o: TestOrg) =>
  (await withDb((db) => ledgerState(db, o.orgId))).entries
    .filter((e) => e.type !== "adjustment")
    .map((e) => [e.action_type, e.amount]);

/** Takes every one of the organisation's heavy slots, as two searches in flight would. */
async function occupy(o: TestOrg): Promise<string[]> {
  const leases: string[] = [];
  for (let k = 0; k < policy.max; k++) {
    const d = await slotsOf(o).acquire(GATE, policy);
    if (!d.granted) throw new Error("slot not granted");
    leases.push(d.lease);
  }
  return leases;
}

async function freeAll(o: TestOrg, leases: string[]): Promise<void> {
  for (const l of leases) await slotsOf(o).release(GATE, l);
}

/** A question whose scripted model calls score_sites with `args`, then answers; every approval is given. */
async function scoreThrough(o: TestOrg, args: Record<string, unknown>) {
  const marker = newMarker();
  await script(marker, [{ tool_calls: [{ name: "score_sites", arguments: args }] }, { text: "Here is what I found." }]);
  const run = await askApproving(o.users.member.token, { question: `Score these sites [[${marker}]]` });
  const output = ofType(run.chunks, "tool-output-available")[0]?.output as Record<string, unknown> | undefined;
  return { ...run, output, marker };
}

/** What the model was told of its tool call, in the request after it. */
async function toldModel(marker: string): Promise<string> {
  const requests = await modelRequests(marker);
  const tool = requests.at(-1)?.messages.find((m) => m.role === "tool");
  return JSON.stringify(tool?.content ?? null);
}

const busy = (output: Record<string, unknown> | undefined) => {
  const error = String(output?.error);
  const seconds = Number(/try again in (\d+) seconds/.exec(error)?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(error).toBe(busySentence(seconds));
  return error;
};

const noScores = (chunks: Chunk[]) => expect(ofType(chunks, "data-parcels")).toEqual([]);

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
}, 60_000);

describe("score_sites takes one of the organisation's heavy slots", () => {
  it("with both slots held, an approved call is refused with when to retry, charges nothing, and leaves no slot taken", async () => {
    const o = await newOrg(1);
    const leases = await occupy(o);
    try {
      const { output, approvals, chunks, marker } = await scoreThrough(o, { lot_ids: LOTS });
      // The quote of named lots reads no area, so the person approved the price before the refusal.
      expect(approvals.map((a) => a.cost)).toEqual([0.3]);
      const sentence = busy(output);
      expect(sentence).toContain("other searches are running");
      expect(sentence).toContain("nothing was charged");
      expect(await toldModel(marker)).toContain("other searches are running");
      noScores(chunks);
      // The question alone was charged; no scoring entry, no balance moved by the refused call.
      expect(await usage(o)).toEqual([["chat", -0.05]]);
      expect(await slotsOf(o).slots(GATE)).toEqual({ held: policy.max, waiting: 0 });
    } finally {
      await freeAll(o, leases);
    }
  });

  it("an area's call is refused the same way, before any approval is asked, and charges nothing", async () => {
    const o = await newOrg(1);
    const leases = await occupy(o);
    try {
      const { output, approvals, chunks } = await scoreThrough(o, { suburb: "Newtown", limit: 2 });
      expect(approvals).toEqual([]);
      busy(output);
      noScores(chunks);
      expect(await usage(o)).toEqual([["chat", -0.05]]);
    } finally {
      await freeAll(o, leases);
    }
  });

  it("with one slot free it scores and charges as before, and gives the slot back", async () => {
    const o = await newOrg(1);
    const leases = await occupy(o);
    try {
      await slotsOf(o).release(GATE, leases.shift() as string);
      const { output } = await scoreThrough(o, { lot_ids: LOTS });
      expect(output).toMatchObject({ charged: 0.3, balance: 0.65 });
      expect(output?.scored).toHaveLength(3);
      expect(await usage(o)).toEqual([
        ["chat", -0.05],
        ["batch_score", -0.3],
      ]);
      expect(await slotsOf(o).slots(GATE)).toEqual({ held: 1, waiting: 0 });
    } finally {
      await freeAll(o, leases);
    }
  });
});
