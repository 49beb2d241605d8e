// POST /chat's request errors: the spec's 422 shape with loc, 413 past the body cap, 503 when Workers AI is
// chosen but not bound, 404 before post-signup; none of them charges anything or reaches the model.
import { createExecutionContext, env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { MAX_QUESTION_CHARS } from "../../../src/routes/schemas/chat.ts";
import { WORKERS_AI_NOT_BOUND } from "../../../src/chat/model.ts";
import { NO_ORGANISATION } from "../../../src/orgs/membership.ts";
import { mintToken } from "../../support/tokens.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask } from "../helpers/chat.ts";

let org: TestOrg;
// An organisation per test: its chat rate limit (src/http/rate-limit.ts) is not what these tests exercise.
beforeEach(async () => {
  org = await withDb((db) => createTeamOrg(db, { credits: 1, idpUsers: false }));
});

async function expect422(body: unknown, issue: Record<string, unknown>): Promise<void> {
  const res = await ask(org.users.member.token, body);
  expect(res.status).toBe(422);
  const detail = (await res.json<{ detail: Record<string, unknown>[] }>()).detail;
  expect(detail).toContainEqual(expect.objectContaining(issue));
}

const BOX = [151.07, -33.78, 151.09, -33.765];

describe("422 validation errors", () => {
  it("question missing or not a string", async () => {
    await expect422({}, { loc: ["body", "question"], type: "missing", msg: "Field required" });
    await expect422(
      { question: 42 },
      { loc: ["body", "question"], type: "string_type", msg: "Input should be a valid string", input: 42 },
    );
    await expect422({ question: null }, { loc: ["body", "question"], type: "string_type" });
  });

  it(`question empty, blank or over ${MAX_QUESTION_CHARS} characters`, async () => {
    await expect422({ question: "" }, { loc: ["body", "question"], type: "string_too_short" });
    await expect422({ question: "   " }, { loc: ["body", "question"], type: "string_too_short" });
    await expect422(
      { question: "x".repeat(MAX_QUESTION_CHARS + 1) },
      { loc: ["body", "question"], type: "string_too_long", ctx: { max_length: MAX_QUESTION_CHARS } },
    );
  });

  it("bbox and viewport_bbox must be four numbers [W, S, E, N] in range", async () => {
    await expect422({ question: "q", bbox: [151, -34, 152] }, { loc: ["body", "bbox"], type: "too_short" });
    await expect422({ question: "q", bbox: [151, -34, 152, -33, 1] }, { loc: ["body", "bbox"], type: "too_long" });
    await expect422({ question: "q", bbox: "151,-34,152,-33" }, { loc: ["body", "bbox"], type: "list_type" });
    await expect422(
      { question: "q", bbox: [151, "south", 152, -33] },
      { loc: ["body", "bbox", 1], type: "float_parsing" },
    );
    await expect422(
      { question: "q", bbox: [152, -34, 151, -33] },
      {
        loc: ["body", "bbox"],
        type: "value_error",
        msg: "Value error, bbox must be [west, south, east, north] with west < east",
      },
    );
    await expect422(
      { question: "q", viewport_bbox: [151, -33, 152, -34] },
      {
        loc: ["body", "viewport_bbox"],
        type: "value_error",
        msg: "Value error, bbox must be [west, south, east, north] with south < north",
      },
    );
    await expect422(
      { question: "q", viewport_bbox: [151, -91, 152, -33] },
      { loc: ["body", "viewport_bbox", 1], type: "value_error", msg: "Value error, south must be between -90 and 90" },
    );
    await expect422(
      { question: "q", bbox: [181, -34, 182, -33] },
      { loc: ["body", "bbox", 0], msg: "Value error, west must be between -180 and 180" },
    );
  });

  it("session_id and visible_layers have their types", async () => {
    await expect422({ question: "q", session_id: 7 }, { loc: ["body", "session_id"], type: "string_type" });
    await expect422({ question: "q", visible_layers: "flood" }, { loc: ["body", "visible_layers"], type: "list_type" });
    await expect422(
      { question: "q", visible_layers: [1] },
      { loc: ["body", "visible_layers", 0], type: "string_type" },
    );
  });

  it("malformed JSON is a 422 at body", async () => {
    const res = await ask(org.users.member.token, '{"question": ');
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { loc: unknown[]; type: string }[] }>()).detail[0]).toMatchObject({
      loc: ["body"],
      type: "json_invalid",
    });
  });

  it("none of them charged anything", async () => {
    const state = await withDb((db) => ledgerState(db, org.orgId));
    expect(state.entries).toHaveLength(1);
    expect(state.cached).toBe(1);
  });

  it("null for every optional field is accepted", async () => {
    const res = await ask(org.users.member.token, {
      question: "What is in Epping?",
      session_id: null,
      bbox: null,
      viewport_bbox: null,
      visible_layers: null,
    });
    expect(res.status).toBe(200);
    await res.text();
    const ok = await ask(org.users.member.token, {
      question: "Which lots here are over 600 m2?",
      bbox: BOX,
      viewport_bbox: BOX,
      visible_layers: ["parcels"],
    });
    expect(ok.status).toBe(200);
    await ok.text();
  });
});

describe("other request errors", () => {
  it("a body over the cap is 413 with a detail", async () => {
    const res = await ask(org.users.member.token, { question: "q", visible_layers: Array(40).fill("x".repeat(1000)) });
    expect(res.status).toBe(413);
    expect((await res.json<{ detail: string }>()).detail).toContain("larger than 32 KiB");
  });

  it("a caller without an organisation is 404 saying to sign up first", async () => {
    const res = await ask(await mintToken(), { question: "What is in Epping?" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: NO_ORGANISATION });
  });

  it("Workers AI chosen without an AI binding: 503 saying what to bind, and nothing charged", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const res = await createApp().fetch(
      new Request("https://api.test/chat", {
        method: "POST",
        headers: { Authorization: `Bearer ${org.users.member.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: "What is in Epping?" }),
      }),
      { ...env, LLM_PROVIDER: "workers-ai" },
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: WORKERS_AI_NOT_BOUND });
    expect((await withDb((db) => ledgerState(db, org.orgId))).entries).toEqual(before.entries);
  });
});
