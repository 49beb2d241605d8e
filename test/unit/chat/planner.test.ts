import { describe, expect, it } from "vitest";
import { PLANNER_NOTICE, plan } from "../../../src/chat/offline/planner.ts";
import type { ChatMessage } from "../../../standins/llm/wire.ts";
import { TOOLS } from "../../fixtures/chat/corpus.ts";

const VIEW = [151.178, -33.9, 151.181, -33.897];
const system = (ctx: unknown = { bbox: null, viewport_bbox: VIEW, visible_layers: ["parcels"] }): ChatMessage => ({
  role: "system",
  content: `You are...\nMap context (JSON): ${JSON.stringify(ctx)}`,
});

function callFor(question: string, before: ChatMessage[] = [], ctx?: unknown) {
  const turn = plan([system(ctx), ...before, { role: "user", content: question }], TOOLS);
  expect(turn.text, `no text for "${question}"`).toBeUndefined();
  const [call] = turn.tool_calls ?? [];
  return { name: call?.name, args: call?.arguments };
}

// One earlier turn: the call the model made and what the tool returned.
function earlier(question: string, name: string, args: Record<string, unknown>, output: unknown): ChatMessage[] {
  return [
    { role: "user", content: question },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: "tool", tool_call_id: "c1", content: JSON.stringify(output) },
    { role: "assistant", content: "Earlier answer." },
  ];
}

describe("offline planner: question forms to tool calls", () => {
  it.each([
    [
      "Show me R2 lots over 600 m2 in Epping without flood",
      "find_parcels",
      { suburb: "Epping", min_area_m2: 600, zones: ["R2"], exclude: ["flood"] },
    ],
    ["Show me parcels over 600 m² in Newtown", "find_parcels", { suburb: "Newtown", min_area_m2: 600 }],
    [
      "lots between 300 and 500 sqm in eastwood",
      "find_parcels",
      { suburb: "Eastwood", min_area_m2: 300, max_area_m2: 500 },
    ],
    [
      "Find flood-free blocks under 1,200 square metres near Carlingford",
      "find_parcels",
      { suburb: "Carlingford", max_area_m2: 1200, exclude: ["flood"] },
    ],
    ["What's the zoning of Lot 24 DP 1293293?", "describe_parcel", { lot_id: "Lot 24 DP 1293293" }],
    ["Is 22//DP1639151 affected by flooding?", "describe_parcel", { lot_id: "22//DP1639151" }],
    ["Score 22//DP1639151 please", "score_sites", { lot_ids: ["22//DP1639151"] }],
    ["What is in Parramatta?", "summarise_area", { suburb: "Parramatta" }],
    ["Tell me about the hazards around St Leonards", "summarise_area", { suburb: "St Leonards" }],
    ["Where is Carlingford?", "geocode_suburb", { suburb: "Carlingford" }],
    ["Score the parcels in view", "score_sites", { bbox: VIEW, limit: 10 }],
    ["Which lots here are over 150 m2?", "find_parcels", { bbox: VIEW, min_area_m2: 150 }],
  ])("%s -> %s", (question, name, args) => {
    expect(callFor(question)).toEqual({ name, args });
  });

  it("a follow-up about 'there' reuses the previous area", () => {
    const before = earlier(
      "Show me lots over 600 m2 in Epping",
      "find_parcels",
      { suburb: "Epping", min_area_m2: 600 },
      { matched: 3, parcels: [] },
    );
    expect(callFor("What about flood risk there?", before)).toEqual({
      name: "summarise_area",
      args: { suburb: "Epping" },
    });
  });

  it("a follow-up about a lot reuses that lot", () => {
    const before = earlier(
      "Describe Lot 24 DP 1293293",
      "describe_parcel",
      { lot_id: "Lot 24 DP 1293293" },
      { lot_id: "24//DP1293293" },
    );
    expect(callFor("and what about bushfire there?", before)).toEqual({
      name: "describe_parcel",
      args: { lot_id: "Lot 24 DP 1293293" },
    });
  });

  it("'score these' scores the lots the previous answer listed", () => {
    const before = earlier(
      "lots over 600 m2 in Epping",
      "find_parcels",
      { suburb: "Epping" },
      { parcels: [{ lot_id: "1//DP1" }, { lot_id: "2//DP2" }] },
    );
    expect(callFor("Score these", before)).toEqual({ name: "score_sites", args: { lot_ids: ["1//DP1", "2//DP2"] } });
  });

  it("'score the first group' after find_assemblies scores that group of adjoining lots as one site", () => {
    const groups = [
      { group_id: "g1", lots: ["1//DP1", "2//DP1", "3//DP1"], area_m2: 1850 },
      { group_id: "g2", lots: ["7//DP2", "8//DP2"], area_m2: 1900 },
      { group_id: "g3", lots: ["4//DP3", "5//DP3"], area_m2: 1810 },
    ];
    const before = earlier(
      "find 3 adjoining R3 lots in Epping making at least 1,800 m2",
      "find_assemblies",
      { suburb: "Epping", zones: ["R3"], target_area_m2: 1800, max_lots: 3 },
      { matched: 3, groups },
    );
    expect(callFor("Score the first group", before)).toEqual({
      name: "score_sites",
      args: { groups: [["1//DP1", "2//DP1", "3//DP1"]] },
    });
    expect(callFor("score the top 2 groups", before)).toEqual({
      name: "score_sites",
      args: {
        groups: [
          ["1//DP1", "2//DP1", "3//DP1"],
          ["7//DP2", "8//DP2"],
        ],
      },
    });
    expect(callFor("score them", before).args).toEqual({ groups: groups.map((g) => g.lots) });
    // A later listing of single lots: "score them" means those lots again.
    const after = [
      ...before,
      ...earlier("R3 lots in Epping", "find_parcels", { suburb: "Epping" }, { parcels: [{ lot_id: "9//DP9" }] }),
    ];
    expect(callFor("score them", after)).toEqual({ name: "score_sites", args: { lot_ids: ["9//DP9"] } });
  });

  it("'is there any heritage in view?' reads the map view, not the previous place", () => {
    const before = earlier(
      "What is in Parramatta?",
      "summarise_area",
      { suburb: "Parramatta" },
      { area: "Parramatta" },
    );
    expect(callFor("Is there any heritage in view?", before)).toEqual({ name: "summarise_area", args: { bbox: VIEW } });
  });

  it("a follow-up refines the previous search: its area and filters stay, the new filter is added", () => {
    const before = earlier(
      "R2 lots over 600 m2 in Epping",
      "find_parcels",
      { suburb: "Epping", zones: ["R2"], min_area_m2: 600 },
      { parcels: [{ lot_id: "1//DP1", area_m2: 900 }] },
    );
    expect(callFor("Now only the ones over 800 m2", before)).toEqual({
      name: "find_parcels",
      args: { suburb: "Epping", zones: ["R2"], min_area_m2: 800 },
    });
    expect(callFor("Which of those is closest to the station?", before)).toEqual({
      name: "find_parcels",
      args: { suburb: "Epping", zones: ["R2"], min_area_m2: 600, sort: "station", limit: 1 },
    });
    expect(callFor("Score the largest one", before)).toEqual({ name: "score_sites", args: { lot_ids: ["1//DP1"] } });
  });

  it("'sort them by value' and 'best margin first' list the same lots by margin over the as-is value", () => {
    const before = earlier(
      "R3 lots in Epping",
      "find_parcels",
      { suburb: "Epping", zones: ["R3"] },
      { parcels: [{ lot_id: "1//DP1", area_m2: 900 }] },
    );
    const byValue = { name: "find_parcels", args: { suburb: "Epping", zones: ["R3"], sort: "value" } };
    expect(callFor("Sort them by value", before)).toEqual(byValue);
    expect(callFor("Show those by margin", before)).toEqual(byValue);
    expect(callFor("best margin first", before)).toEqual(byValue);
    expect(callFor("Which are the most valuable?", before)).toEqual(byValue);
    expect(callFor("R3 lots in Epping sorted by residual land value", [])).toEqual(byValue);
  });

  it("'those' with nothing found earlier says it cannot tell which lots, and what it needs", () => {
    const turn = plan([system(), { role: "user", content: "Which of those is closest to the station?" }], TOOLS);
    expect(turn.tool_calls).toBeUndefined();
    expect(turn.text).toContain("I cannot tell which lots you mean");
    expect(turn.text).toContain("Ask for lots first");
  });

  it("asks which area when neither the question, the history nor the map names one", () => {
    const turn = plan(
      [system({ bbox: null, viewport_bbox: null }), { role: "user", content: "show me big lots" }],
      TOOLS,
    );
    expect(turn.tool_calls).toBeUndefined();
    expect(turn.text).toContain("Which area do you mean?");
  });

  it("does not call a tool the request did not offer", () => {
    const turn = plan([{ role: "user", content: "What is in Parramatta?" }], new Set(["find_parcels"]));
    expect(turn.text).toContain("summarise_area");
  });
});

describe("offline planner: answers", () => {
  const withResult = (prior: ChatMessage[], output: unknown, name = "find_parcels") => [
    system(),
    ...prior,
    { role: "user", content: "Show me lots over 600 m2 in Epping" } as ChatMessage,
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c9", type: "function", function: { name, arguments: "{}" } }],
    } as ChatMessage,
    { role: "tool", tool_call_id: "c9", content: JSON.stringify(output) } as ChatMessage,
  ];
  const found = {
    area: "Epping, NSW",
    filters: { min_area_m2: 600 },
    matched: 42,
    shown: 42,
    parcels: [{ lot_id: "7//DP9", area_m2: 815.9, zone: "R2", address: "1 Essex Street, Epping NSW 2121" }],
    demo_data: true,
  };

  it("answers from the tool result, saying once that it is the offline planner", () => {
    const first = plan(withResult([], found), TOOLS).text as string;
    expect(first.startsWith(PLANNER_NOTICE)).toBe(true);
    expect(first).toContain("42 parcels in Epping, NSW over 600 m²");
    expect(first).toContain("7//DP9 (816 m², R2, 1 Essex Street, Epping NSW 2121)");
    expect(first).toContain("synthetic demo data");
    const later = plan(withResult(earlier("hi", "summarise_area", {}, {}), found), TOOLS).text as string;
    expect(later).not.toContain(PLANNER_NOTICE);
  });

  it("explains a refused scoring charge and a tool error", () => {
    const short = plan(
      withResult([], { error: "insufficient_credits", required: 0.3, available: 0.1 }, "score_sites"),
      TOOLS,
    ).text as string;
    expect(short).toContain("costs 0.3 credits and the organisation has 0.1");
    const missing = plan(withResult([], { error: "Suburb not found: Atlantis" }), TOOLS).text as string;
    expect(missing).toContain("Suburb not found: Atlantis");
  });
});
