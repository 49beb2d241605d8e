// Hostile input through the real app: every free string is bounded, JSON bodies are capped (413 in the
// spec's envelope), echoed inputs are clipped, and the role is checked before the body is read.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_JSON_BYTES } from "../../src/http/body.ts";
import { type TestOrg, createTeamOrg, withDb } from "./helpers/billing.ts";

const api = "https://api.test";

function post(path: string, token: string, body: string, contentType = "application/json"): Promise<Response> {
  return SELF.fetch(`${api}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
    body,
  });
}

const randomText = (n: number) =>
  Array.from({ length: n }, () => "abcdefghijklmnopqrstuvwxyz0123456789._%+-"[Math.floor(Math.random() * 41)]).join("");

interface Issue {
  loc: (string | number)[];
  type: string;
  input: unknown;
}

let team: TestOrg | undefined;
async function org(): Promise<TestOrg> {
  team ??= await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
  return team;
}

describe("hostile input", () => {
  for (const n of [300, 2600, 3000]) {
    it(`an invite e-mail of ${n} characters is a 422 at body.email with the input clipped, not a 500`, async () => {
      const o = await org();
      const email = `${randomText(n - 12)}@example.com`;
      const res = await post("/billing/invite", o.users.owner.token, JSON.stringify({ email }));
      expect(res.status).toBe(422);
      const { detail } = await res.json<{ detail: Issue[] }>();
      expect(detail[0]?.loc).toEqual(["body", "email"]);
      expect(typeof detail[0]?.input).toBe("string");
      expect(String(detail[0]?.input ?? "").length).toBeLessThanOrEqual(101);
    });
  }

  it("a JSON body over the cap is 413 {detail}, before anything parses it", async () => {
    const o = await org();
    const body = JSON.stringify({ email: "a@b.co", padding: "x".repeat(DEFAULT_MAX_JSON_BYTES) });
    const res = await post("/billing/invite", o.users.owner.token, body);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "The request body is larger than 64 KiB" });
  });

  it("a streamed JSON body without Content-Length is capped the same way", async () => {
    const o = await org();
    const chunk = new TextEncoder().encode(`{"tier_id":"${"x".repeat(16 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 8) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    const res = await SELF.fetch(`${api}/billing/checkout`, {
      method: "POST",
      headers: { Authorization: `Bearer ${o.users.owner.token}`, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("a 1 MiB pack_id in a report is a 422 whose echoed input is clipped (never echoed whole)", async () => {
    const o = await org();
    const body = JSON.stringify({ scores: [], parcel_geojsons: [], pack_id: "p".repeat(1024 * 1024) });
    const res = await post("/report/generate", o.users.owner.token, body);
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text.length).toBeLessThan(2000);
    const { detail } = JSON.parse(text) as { detail: Issue[] };
    expect(detail[0]).toMatchObject({
      loc: ["body", "pack_id"],
      type: "string_too_long",
      input: `${"p".repeat(100)}…`,
    });
  });

  it("many unknown fields: each echoed key and value is clipped", async () => {
    const o = await org();
    const long = "k".repeat(5000);
    const res = await post(
      "/billing/checkout",
      o.users.owner.token,
      JSON.stringify({ tier_id: "starter", [long]: long }),
    );
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: Issue[] }>();
    expect(detail[0]?.type).toBe("extra_forbidden");
    expect(String(detail[0]?.loc[1]).length).toBeLessThanOrEqual(101);
    expect(String(detail[0]?.input).length).toBeLessThanOrEqual(101);
  });

  it("a long suburb query is a 422 at query.suburb, not echoed whole in a 404", async () => {
    const o = await org();
    const res = await SELF.fetch(`${api}/geocode?suburb=${"z".repeat(5000)}`, {
      headers: { Authorization: `Bearer ${o.users.member.token}` },
    });
    expect(res.status).toBe(422);
    expect((await res.text()).length).toBeLessThan(1000);
  });

  it("a member sending an invalid body to an admin route gets 403, not 422: the route's shape stays hidden", async () => {
    const o = await org();
    for (const path of ["/billing/invite", "/billing/checkout"]) {
      const res = await post(path, o.users.member.token, '{"nonsense": true');
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ detail: "Billing admin access required" });
    }
  });

  it("a body that is not JSON on a JSON route is a 415 {detail} naming the accepted type", async () => {
    const o = await org();
    const res = await post("/billing/invite", o.users.owner.token, "email=a@b.co", "text/plain");
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: expect.stringContaining("application/json") });
  });
});
