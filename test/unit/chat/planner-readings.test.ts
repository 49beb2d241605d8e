// How the offline planner's answers say what it read: the default it took for "near a station", the words it did not
// understand, each scored site's own reasons, and the place names it knows (every suburb of the suburbs pack).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { plan } from "../../../src/chat/offline/planner.ts";
import { suburbNamed } from "../../../src/chat/offline/places.ts";
import { STATION_NAMES } from "../../../src/chat/offline/station-names.ts";
import { SUBURB_NAMES } from "../../../src/chat/offline/suburb-names.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import type { ChatMessage } from "../../../standins/llm/wire.ts";

const TOOLS = new Set(["find_parcels", "score_sites", "summarise_area", "describe_parcel", "geocode_suburb"]);

/** The answer to `question` once its call returned `output`. */
function answer(question: string, name: string, output: unknown): string {
  const turn = plan(
    [
      { role: "user", content: question },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name, arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: JSON.stringify(output) },
    ] as ChatMessage[],
    TOOLS,
  );
  return turn.text ?? "";
}

const found = (filters: Record<string, unknown>) => ({
  area: "Epping, NSW",
  filters,
  matched: 4,
  shown: 4,
  order: "largest first",
  parcels: [{ lot_id: "7//DP9", area_m2: 815.9, zone: "R3", address: "1 Essex Street, Epping NSW 2121" }],
  demo_data: false,
});

describe("the offline planner's answers say how it read the question", () => {
  it("'near Epping station' with no distance says it took 800 m, and the filter it applied", () => {
    const text = answer(
      "Find R3 lots over 700 m2 near Epping station",
      "find_parcels",
      found({ zones: ["R3"], min_area_m2: 700, station_within_m: 800 }),
    );
    expect(text).toContain("I found 4 parcels in Epping, NSW zoned R3, over 700 m², within 800 m of a station");
    expect(text).toContain('I took "near a station" as within 800 m of one');
  });

  it("a distance given is not called a default", () => {
    const text = answer(
      "R3 lots within 400 m of a station in Epping",
      "find_parcels",
      found({ station_within_m: 400 }),
    );
    expect(text).toContain("within 400 m of a station");
    expect(text).not.toContain("I took");
  });

  it("words no rule understood are named in the answer, with what it did apply", () => {
    const text = answer("Find R3 lots with a pool in Epping", "find_parcels", found({ zones: ["R3"] }));
    expect(text).toContain("zoned R3");
    expect(text).toContain('I did not understand "with a pool", so I did not apply it.');
  });

  it("each scored site shows its own first reasons, and the data's synthetic origin is said once", () => {
    const output = {
      charged: 0.2,
      balance: 4.7,
      scored: [
        {
          lot_id: "1//DP1",
          address: "1 A St",
          score: 70,
          rating: "Good",
          reasons: ["Zoned R3 (100% of the lot).", "Lot 900 m², frontage 20 m."],
        },
        {
          lot_id: "2//DP2",
          address: "2 B St",
          score: 40,
          rating: "Fair",
          reasons: ["Split zoning: R2 60%, R3 40%.", "Lot 650 m², frontage 15 m."],
        },
      ],
      not_found: [],
      demo_data: true,
    };
    const text = answer("score the top 2", "score_sites", output);
    expect(text).toContain("1//DP1 (1 A St): 70/100 (Good): Zoned R3 (100% of the lot); Lot 900 m², frontage 20 m");
    expect(text).toContain("2//DP2 (2 B St): 40/100 (Fair): Split zoning: R2 60%, R3 40%; Lot 650 m², frontage 15 m");
    expect(text.match(/synthetic demo data/g)).toHaveLength(1);
  });
});

describe("place names", () => {
  it("are every suburb of the suburbs pack, no more", () => {
    const pack = readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs");
    const layer = pack.layers.get("suburbs");
    if (!layer) throw new Error("no suburbs layer");
    const names = Array.from({ length: layer.count }, (_, i) => String(layer.props(i).name));
    expect([...SUBURB_NAMES].sort()).toEqual([...new Set(names)].sort());
  });

  it("know every station of the transport pack, no more", () => {
    const layer = readPackBytes(readFileSync("packs/sydney-transport.pack"), "sydney-transport").layers.get("stations");
    if (!layer) throw new Error("no stations layer");
    const names = Array.from({ length: layer.count }, (_, i) => String(layer.props(i).name));
    expect([...STATION_NAMES].sort()).toEqual([...new Set(names)].sort());
  });

  it("take a station that is no suburb as the area around it, and a suburb's station as the suburb", () => {
    expect(plan([{ role: "user", content: "R4 lots near Central station" }], TOOLS).tool_calls).toEqual([
      { name: "find_parcels", arguments: { station: "Central", station_within_m: 800, zones: ["R4"] } },
    ]);
    expect(plan([{ role: "user", content: "R4 lots near Epping station" }], TOOLS).tool_calls).toEqual([
      { name: "find_parcels", arguments: { suburb: "Epping", station_within_m: 800, zones: ["R4"] } },
    ]);
  });

  it("are known in lower case and with Saint or Mount spelt out, except everyday words", () => {
    expect(suburbNamed("north epping")).toBe("North Epping");
    expect(suburbNamed("saint ives")).toBe("St Ives");
    expect(plan([{ role: "user", content: "lots in mount druitt over 600 m2" }], TOOLS).tool_calls).toEqual([
      { name: "find_parcels", arguments: { suburb: "Mount Druitt", min_area_m2: 600 } },
    ]);
    // "prospect" in lower case is a word, not the suburb.
    expect(plan([{ role: "user", content: "good prospect lots in Epping" }], TOOLS).tool_calls).toEqual([
      { name: "find_parcels", arguments: { suburb: "Epping" } },
    ]);
  });
});
