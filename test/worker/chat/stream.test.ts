// POST /chat's stream through the real app against the local model server: protocol, tools, map data,
// and the AI SDK's own client reading it.
import { SELF } from "cloudflare:test";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import type { ChatUIMessage } from "../../../src/chat/stream.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { createTeamOrg, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask, chunksOf, modelRequests, newMarker, ofType, script, textOf, type Chunk } from "../helpers/chat.ts";

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 20, idpUsers: false }));
});

// Part types in order, with runs of deltas folded into one.
function shape(chunks: Chunk[]): string[] {
  const out: string[] = [];
  for (const c of chunks) if (!(c.type.endsWith("-delta") && out.at(-1) === c.type)) out.push(c.type);
  return out;
}

const FIND = { suburb: "Epping", min_area_m2: 600, zones: ["R2"] };

describe("a question answered with one tool call", () => {
  const marker = newMarker();
  let res: Response;
  let chunks: Chunk[];

  beforeAll(async () => {
    await script(marker, [
      { tool_calls: [{ id: "call_find", name: "find_parcels", arguments: FIND }] },
      { text: "I found R2 lots over 600 m² in Epping; they are highlighted." },
    ]);
    res = await ask(
      org.users.member.token,
      {
        question: `Show me R2 lots over 600 m2 in Epping [[${marker}]]`,
        viewport_bbox: [151.07, -33.78, 151.09, -33.765],
        visible_layers: ["parcels", "flood"],
      },
      { Origin: "https://app.example.com" },
    );
    chunks = await chunksOf(res);
  });

  it("is the UI message stream v1: headers, session id exposed to browsers", () => {
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(res.headers.get("content-encoding")).toBe("identity");
    expect(res.headers.get("x-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Session-Id");
  });

  it("streams start, tool input, map data, tool output, text, finish, then [DONE], in that order", () => {
    expect(shape(chunks)).toEqual([
      "start",
      "data-session",
      "data-credits",
      "start-step",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-available",
      "data-bbox",
      "data-parcels",
      "tool-output-available",
      "finish-step",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
      "[DONE]",
    ]);
    expect(textOf(chunks)).toBe("I found R2 lots over 600 m² in Epping; they are highlighted.");
    expect(ofType(chunks, "data-session")[0]).toMatchObject({
      data: { session_id: res.headers.get("x-session-id") },
      transient: true,
    });
    expect(ofType(chunks, "data-credits")[0]).toMatchObject({
      data: { action: "chat", charged: 0.05 },
      transient: true,
    });
  });

  it("runs the tool on the packs: the output is compact, the parcels go to the map as GeoJSON", () => {
    const input = ofType(chunks, "tool-input-available")[0];
    expect(input).toMatchObject({ toolCallId: "call_find", toolName: "find_parcels", input: FIND });
    const output = ofType(chunks, "tool-output-available")[0]?.output as {
      matched: number;
      shown: number;
      parcels: { lot_id: string; area_m2: number; zone: string }[];
    };
    expect(output.matched).toBeGreaterThan(10);
    expect(output.parcels).toHaveLength(10);
    for (const p of output.parcels) expect(p).toMatchObject({ zone: "R2", area_m2: expect.any(Number) });
    const parcels = ofType(chunks, "data-parcels")[0]?.data as {
      type: string;
      features: { id: string; geometry: { type: string }; properties: { area_m2: number; zone: string } }[];
    };
    expect(parcels.type).toBe("FeatureCollection");
    expect(parcels.features).toHaveLength(output.shown);
    for (const f of parcels.features) {
      expect(f.geometry.type).toMatch(/Polygon/);
      expect(f.properties.area_m2).toBeGreaterThanOrEqual(600);
      expect(f.properties.zone).toBe("R2");
    }
    expect(ofType(chunks, "data-bbox")[0]).toMatchObject({ data: { label: "Epping, NSW", bbox: expect.any(Array) } });
  });

  it("sends the model the tools, the map context, and the tool's result on the next step", async () => {
    const [first, second] = await modelRequests(marker);
    expect(first?.stream).toBe(true);
    expect(first?.model).toBe("offline-planner");
    expect(first?.tools?.map((t) => t.function.name).sort()).toEqual([
      "describe_parcel",
      "find_assemblies",
      "find_parcels",
      "geocode_suburb",
      "lookup_lot",
      "score_sites",
      "summarise_area",
    ]);
    const system = first?.messages.find((m) => m.role === "system")?.content as string;
    expect(system).toContain(
      'Map context (JSON): {"bbox":null,"viewport_bbox":[151.07,-33.78,151.09,-33.765],"visible_layers":["parcels","flood"]}',
    );
    const tool = second?.messages.find((m) => m.role === "tool");
    expect(tool?.tool_call_id).toBe("call_find");
    expect(JSON.parse(tool?.content as string)).toMatchObject({
      area: "Epping, NSW",
      filters: { min_area_m2: 600, zones: ["R2"] },
    });
  });
});

describe("the AI SDK's own client", () => {
  it("reads the stream unchanged: useChat's transport assembles text, tool and data parts", async () => {
    const marker = newMarker();
    await script(marker, [
      { tool_calls: [{ name: "describe_parcel", arguments: { lot_id: "Lot 24 DP 1293293" } }] },
      { text: "Lot 24 is zoned R2." },
    ]);
    let sent: unknown;
    const transport = new DefaultChatTransport<ChatUIMessage>({
      api: "https://api.test/chat",
      headers: { Authorization: `Bearer ${org.users.member.token}` },
      fetch: (input, init) => SELF.fetch(input as string, init),
      prepareSendMessagesRequest: ({ messages }) => {
        const last = messages.at(-1)?.parts.find((p) => p.type === "text");
        sent = { question: last && "text" in last ? last.text : "" };
        return { body: sent as object };
      },
    });
    const stream = await transport.sendMessages({
      trigger: "submit-message",
      chatId: "c1",
      messageId: undefined,
      abortSignal: undefined,
      messages: [
        { id: "u1", role: "user", parts: [{ type: "text", text: `Describe Lot 24 DP 1293293 [[${marker}]]` }] },
      ],
    });
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream<ChatUIMessage>({ stream, terminateOnError: true })) message = m;
    expect(sent).toEqual({ question: `Describe Lot 24 DP 1293293 [[${marker}]]` });
    expect(message?.role).toBe("assistant");
    const parts = message?.parts ?? [];
    expect(parts.find((p) => p.type === "text")).toMatchObject({ text: "Lot 24 is zoned R2.", state: "done" });
    expect(parts.find((p) => p.type === "tool-describe_parcel")).toMatchObject({
      state: "output-available",
      input: { lot_id: "Lot 24 DP 1293293" },
      output: { lot_id: "24//DP1293293" },
    });
    expect(parts.find((p) => p.type === "data-parcels")).toMatchObject({
      data: { type: "FeatureCollection", features: [expect.objectContaining({ id: "24//DP1293293" })] },
    });
    expect(parts.find((p) => p.type === "data-bbox")).toMatchObject({ data: { label: "24//DP1293293" } });
    // Transient parts reach onData only, never the stored message.
    expect(parts.some((p) => p.type === "data-session" || p.type === "data-credits")).toBe(false);
  });
});
