// The planner's constraints served to a real model: the local model server, scripted with the corpus's expected
// calls for three phrasings, drives the OpenAI-compatible path, and each call's lots are the site search's.
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { phrasing } from "../../fixtures/chat/corpus.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { call, createTeamOrg, withDb, type TestOrg } from "../helpers/billing.ts";
import { answerOf, ask, modelRequests, newMarker, script } from "../helpers/chat.ts";
import { approvalIn } from "./approvals.ts";

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 50, idpUsers: false }));
});

type Search = { count: number; results: { lot_id: string | null }[] };
async function siteSearch(body: Record<string, unknown>): Promise<Search> {
  const res = await call("/sites/search", { method: "POST", token: org.users.member.token, body });
  expect(res.status).toBe(200);
  return (await res.json()) as Search;
}

/** Asks the phrasing with the model scripted to make the corpus's call for it, then to answer. */
async function scripted(say: string) {
  const expected = phrasing(say).call;
  if (!expected) throw new Error(`the corpus expects no call for "${say}"`);
  const marker = newMarker();
  await script(marker, [{ tool_calls: [{ name: expected.name, arguments: expected.args }] }, { text: "Done." }]);
  const a = await answerOf(await ask(org.users.member.token, { question: `${say} [[${marker}]]` }));
  // The model was offered the constraints in the tools' schema.
  const offered = (await modelRequests(marker))[0]?.tools as { function: { name: string; parameters?: unknown } }[];
  const find = offered.find((t) => t.function.name === expected.name);
  for (const key of Object.keys(expected.args)) expect(JSON.stringify(find?.function.parameters)).toContain(`"${key}"`);
  expect(a.calls[0]).toMatchObject({ toolName: expected.name, input: expected.args });
  return { a, args: expected.args };
}

const ids = (a: Awaited<ReturnType<typeof answerOf>>) => (a.parcels?.features ?? []).map((f) => f.id);

describe("a real model's calls with the planner's constraints", () => {
  it("'lots near a station in parramatta with an FSR of at least 1.5': the lots the site search finds with both filters", async () => {
    const { a } = await scripted("lots near a station in parramatta with an FSR of at least 1.5");
    const api = await siteSearch({
      area: { suburb: "Parramatta" },
      filters: { station_within_m: 800, fsr_min: 1.5 },
      sort: "area",
      limit: 50,
    });
    expect(api.count).toBeGreaterThan(0);
    expect(a.output.matched).toBe(api.count);
    expect(ids(a)).toEqual(api.results.map((r) => r.lot_id));
    expect(a.text).toBe("Done.");
  });

  it("'Find lots with a height limit of at least 12m in Carlingford, no bushfire': the site search's lots", async () => {
    const { a } = await scripted("Find lots with a height limit of at least 12m in Carlingford, no bushfire");
    const api = await siteSearch({
      area: { suburb: "Carlingford" },
      filters: { height_min_m: 12, exclude: ["bushfire"] },
      sort: "area",
      limit: 50,
    });
    expect(api.count).toBeGreaterThan(0);
    expect(a.output.matched).toBe(api.count);
    expect(ids(a)).toEqual(api.results.map((r) => r.lot_id));
  });

  it("'Score the 3 largest R2 lots in Epping': the approval names the search's 3 largest R2 lots and 0.3 credit", async () => {
    const { a } = await scripted("Score the 3 largest R2 lots in Epping");
    const api = await siteSearch({ area: { suburb: "Epping" }, filters: { zones: ["R2"] }, sort: "area", limit: 3 });
    const request = approvalIn(a.chunks);
    expect(request?.units).toBe(3);
    expect(request?.cost).toBe(0.3);
    expect(request?.sites.map((s) => s.lot_id)).toEqual(api.results.map((r) => r.lot_id));
  });
});
