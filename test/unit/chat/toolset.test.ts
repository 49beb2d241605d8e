// The tools one question gets: their names and input fields as the model sees them, and the call bound.
import { fixedScope } from "../../../src/packs/scope.ts";
import { asSchema, type FlexibleSchema } from "ai";
import { describe, expect, it } from "vitest";
import { QUESTION_BOUNDS, QuestionBudget } from "../../../src/chat/budget.ts";
import type { MapUpdate } from "../../../src/chat/tools/map.ts";
import { chatTools } from "../../../src/chat/toolset.ts";
import { packs } from "./demo-packs.ts";

function question(approved: Record<string, number> = {}) {
  const emitted: string[] = [];
  const charged: [number, string][] = [];
  const tools = chatTools({
    packs: fixedScope(packs),
    fallbackBbox: null,
    chargeSites: async (sites, toolCallId) => {
      charged.push([sites, toolCallId]);
      return { ok: true, charged: sites / 10, balance: 10 };
    },
    emit: (_: MapUpdate, toolCallId) => emitted.push(toolCallId),
    budget: new QuestionBudget(),
    approvedUnits: (toolCallId) => approved[toolCallId] ?? null,
  });
  return { tools, emitted, charged };
}

const options = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });

async function fieldsOf(inputSchema: FlexibleSchema<unknown>) {
  const schema = (await asSchema(inputSchema).jsonSchema) as { properties: object; required?: string[] };
  return { properties: Object.keys(schema.properties), required: schema.required ?? [] };
}

describe("chatTools", () => {
  it("offers the seven tools with the input fields the model is told about", async () => {
    const { tools } = question();
    const fields: Record<string, unknown> = {};
    for (const [name, t] of Object.entries(tools)) fields[name] = await fieldsOf(t.inputSchema);
    const area = ["suburb", "station", "bbox"];
    const filters = [
      "min_area_m2",
      "max_area_m2",
      "zones",
      "hazard_free",
      "exclude",
      "fsr_min",
      "height_min_m",
      "station_within_m",
    ];
    expect(fields).toEqual({
      geocode_suburb: { properties: ["suburb"], required: ["suburb"] },
      find_parcels: { properties: [...area, ...filters, "sort", "limit"], required: [] },
      find_assemblies: {
        properties: [...area, ...filters, "target_area_m2", "max_lots", "min_frontage_m", "exclude_strata"],
        required: ["target_area_m2"],
      },
      lookup_lot: { properties: ["lot_id"], required: ["lot_id"] },
      describe_parcel: { properties: ["lot_id", "lon", "lat"], required: [] },
      score_sites: { properties: ["lot_ids", "groups", ...area, ...filters, "limit"], required: [] },
      summarise_area: { properties: area, required: [] },
    });
  });

  it("charges an approved scoring call under its own call id and sends its map part", async () => {
    const { tools, emitted, charged } = question({ s1: 2 });
    const out = await tools.score_sites.execute({ suburb: "Epping", limit: 2 }, options("s1"));
    expect(out).toMatchObject({ charged: 0.2, scored: [{}, {}] });
    expect(charged).toEqual([[2, "s1"]]);
    expect(emitted).toEqual(["s1"]);
  });

  it("a scoring call nobody approved, or approved for other sites, charges nothing and scores nothing", async () => {
    const { tools, emitted, charged } = question({ s2: 3 });
    const unasked = await tools.score_sites.execute({ suburb: "Epping", limit: 2 }, options("s1"));
    expect(unasked).toEqual({ error: expect.stringMatching(/needs the person's approval/) });
    const changed = await tools.score_sites.execute({ suburb: "Epping", limit: 2 }, options("s2"));
    expect(changed).toEqual({ error: expect.stringMatching(/changed since the person approved 3 \(now 2\)/) });
    expect(charged).toEqual([]);
    expect(emitted).toEqual(["s1", "s2"]);
  });

  it("a call past the question's bound does no work: no map part, no charge", async () => {
    const { tools, emitted, charged } = question();
    for (let i = 0; i < QUESTION_BOUNDS.toolCalls; i++)
      await tools.geocode_suburb.execute({ suburb: "Epping" }, options(`g${i}`));
    expect(emitted).toHaveLength(QUESTION_BOUNDS.toolCalls);
    const out = await tools.score_sites.execute({ suburb: "Epping" }, options("late"));
    expect(out).toEqual({ error: expect.stringMatching(/used its tool calls/) });
    expect(emitted).not.toContain("late");
    expect(charged).toEqual([]);
  });
});
