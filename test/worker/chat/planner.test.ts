// The dev stack's offline planner end to end on the demo suburbs: with no script, each common question
// form reaches the right tool through the real client, and the map gets the right data.
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { PLANNER_NOTICE } from "../../../src/chat/offline/planner.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { answerOf, ask, ofType } from "../helpers/chat.ts";
import { answer, approvalIn } from "./approvals.ts";

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 50, idpUsers: false }));
});

async function question(body: Record<string, unknown>) {
  const answer = await answerOf(await ask(org.users.member.token, body));
  return { ...answer, call: answer.calls[0] };
}

describe("offline planner, end to end", () => {
  it("'Show me parcels over 600 m2 in Epping' highlights only such parcels in Epping, and says so", async () => {
    const q = await question({ question: "Show me parcels over 600 m2 in Epping" });
    expect(q.call).toMatchObject({ toolName: "find_parcels", input: { suburb: "Epping", min_area_m2: 600 } });
    expect(q.parcels?.features.length).toBeGreaterThan(0);
    for (const f of q.parcels?.features ?? []) {
      expect(f.properties.area_m2).toBeGreaterThan(600);
      expect(f.properties.address).toMatch(/, Epping NSW 2121$/);
    }
    expect(q.text.startsWith(PLANNER_NOTICE)).toBe(true);
    expect(q.text).toContain(`I found ${q.output.matched} parcels in Epping, NSW over 600 m²`);
    expect(ofType(q.chunks, "data-bbox")[0]).toMatchObject({ data: { label: "Epping, NSW" } });
  });

  it("the same question for Newtown, whose lots are all smaller, highlights nothing and says how big they are", async () => {
    const q = await question({ question: "Show me parcels over 600 m2 in Newtown" });
    expect(q.output).toMatchObject({ matched: 0 });
    expect(q.parcels?.features).toEqual([]);
    expect(q.text).toContain("No parcel in Newtown, NSW is over 600 m²");
    expect(q.text).toMatch(/Parcels there range from \d+ m² to \d+ m²/);
  });

  it("zoning and hazards of a lot", async () => {
    const q = await question({ question: "What's the zoning and flood risk of Lot 24 DP 1293293?" });
    expect(q.call).toMatchObject({ toolName: "describe_parcel", input: { lot_id: "Lot 24 DP 1293293" } });
    const zones = q.output.zones as { code: string }[];
    expect(q.text).toContain(`Lot 24//DP1293293`);
    expect(q.text).toContain(`zoned ${zones[0]?.code}`);
    expect(q.text).toMatch(/Flood: (none|\d+% of the lot)/);
    expect(q.parcels?.features.map((f) => f.id)).toEqual(["24//DP1293293"]);
  });

  it("what is in an area: zone mix and hazards, with the hazard polygons for the map", async () => {
    const q = await question({ question: "What is in Erskineville?" });
    expect(q.call).toMatchObject({ toolName: "summarise_area", input: { suburb: "Erskineville" } });
    expect(q.text).toMatch(/Erskineville, NSW has \d+ parcels/);
    expect(q.text).toMatch(/\d+% of parcels touch a flood planning area/);
    const overlays = ofType(q.chunks, "data-overlays")[0]?.data as { features: { properties: { layer: string } }[] };
    expect(overlays.features.some((f) => f.properties.layer === "flood")).toBe(true);
  });

  it("'score the parcels in view' asks, then scores the map view's largest lots and charges 0.1 for each", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const view = [151.0815, -33.776, 151.0845, -33.773];
    const asked = await question({ question: "Score the parcels in view", viewport_bbox: view });
    expect(asked.call).toMatchObject({ toolName: "score_sites", input: { bbox: view, limit: 10 } });
    const request = approvalIn(asked.chunks);
    const q = await answerOf(await answer(org.users.member.token, asked.sessionId, request!.id, true));
    const scored = q.output.scored as { score: number }[];
    expect(scored.length).toBeGreaterThan(0);
    expect(q.output.charged).toBeCloseTo(scored.length * 0.1, 10);
    expect(q.parcels?.features.every((f) => typeof f.properties.score === "number")).toBe(true);
    const after = await withDb((db) => ledgerState(db, org.orgId));
    expect(after.entries.slice(before.entries.length).map((e) => e.amount)).toEqual([
      -0.05,
      -Math.round(scored.length) / 10,
    ]);
  });

  it("a follow-up refers to the previous turn ('there'), without repeating the notice", async () => {
    const first = await question({ question: "Show me lots over 600 m2 in Epping" });
    const q = await question({ question: "What about flood risk there?", session_id: first.sessionId });
    expect(q.call).toMatchObject({ toolName: "summarise_area", input: { suburb: "Epping" } });
    expect(q.text).not.toContain(PLANNER_NOTICE);
    expect(q.text).toMatch(/of parcels touch a flood planning area|no parcel touches a flood planning area/);
  });

  it("where a suburb is", async () => {
    const q = await question({ question: "Where is Carlingford?" });
    expect(q.call).toMatchObject({ toolName: "geocode_suburb", input: { suburb: "Carlingford" } });
    expect(ofType(q.chunks, "data-bbox")[0]).toMatchObject({ data: { label: "Carlingford, NSW" } });
  });
});
